// Lets Node import the browser's modules as the page does: "/static/..." names a file of the
// server's static folder (node --import ./tests/js/register.mjs --test tests/js).
import { register } from "node:module";

register("./static-loader.mjs", import.meta.url);
