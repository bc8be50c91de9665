"""Passkeys in a real browser: Chromium's virtual authenticator (DevTools' ``WebAuthn``
domain) makes and uses a passkey through ``static/js/passkeys.js`` against ``polis serve``:
added while signed in, then signing in with no name typed. The server listens on 127.0.0.1,
so its passkeys are localhost's: the page at http://localhost works, the page at
http://127.0.0.1 is told where to go."""

from __future__ import annotations

from typing import Any

from .browser_helpers import BROWSER_TESTS, ServerProcess, new_context, page_errors

pytestmark = BROWSER_TESTS

PASSWORD = "correct horse battery"

ADD_THEN_SIGN_IN = """
async ([name, password]) => {
  const pk = await import("/static/js/passkeys.js");
  const made = await fetch("/api/account/signup", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({name, password})});
  const me = await made.json();
  const added = await pk.addPasskey(me.csrf);
  let again = null;
  try { await pk.addPasskey(me.csrf); } catch (err) { again = err.code; }
  await fetch("/api/account/logout", {method: "POST", headers: {"X-CSRF-Token": me.csrf}});
  const out = await (await fetch("/api/account")).json();
  const signed = await pk.signInWithPasskey();
  const back = await (await fetch("/api/account")).json();
  const list = await pk.listPasskeys();
  return {added, again, out: out.account, signed: signed.account.name, back: back.account.name,
          list: list.map((p) => p.id), supported: pk.passkeysSupported()};
}
"""

WRONG_HOST = """
async () => {
  const pk = await import("/static/js/passkeys.js");
  try { await pk.signInWithPasskey(); return null; } catch (err) { return [err.code, err.message]; }
}
"""


def virtual_authenticator(context: Any, page: Any) -> Any:
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, found["authenticatorId"]


def test_a_passkey_made_by_the_browser_signs_in(server: ServerProcess, browser: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"http://localhost:{server.port}/")
    cdp, authenticator = virtual_authenticator(context, page)
    done = page.evaluate(ADD_THEN_SIGN_IN, ["Vera", PASSWORD])
    assert done["supported"] is True
    assert done["again"] == "exists"  # the authenticator holds one already (excluded)
    assert done["out"] is None
    assert done["signed"] == done["back"] == "Vera"
    assert done["list"] == [done["added"]["id"]]
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(held) == 1 and held[0]["isResidentCredential"] is True
    assert held[0]["rpId"] == "localhost" and held[0]["signCount"] >= 2

    # the same server at 127.0.0.1: the helper says where its passkeys work
    page.goto(f"http://127.0.0.1:{server.port}/")
    code, message = page.evaluate(WRONG_HOST)
    assert code == "wrong_host" and f"http://localhost:{server.port}/" in message
    assert errors == []
    context.close()
