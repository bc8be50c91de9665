// @ts-check
// One WebSocket per held seat (or one spectator socket), reconnecting with back-off.

/**
 * A message from the server: `type` says which (state, welcome, error, ...; wire/to_client).
 * @typedef {{type: string, [field: string]: any}} ServerMessage
 */

/**
 * What a connection tells its owner.
 * @typedef {object} ConnectionHandlers
 * @property {(conn: SeatConnection, msg: ServerMessage) => void} message
 * @property {(conn: SeatConnection, status: "open" | "closed") => void} [status]
 * @property {(conn: SeatConnection, code: number, refusal: ServerMessage | null) => void} [refused]
 */

export class SeatConnection {
  /**
   * @param {string} gameId
   * @param {string | null} token  null: a spectator
   * @param {ConnectionHandlers} handlers
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token; // null = spectator
    this.handlers = handlers;
    /** @type {ServerMessage | null} the last state message */
    this.state = null;
    this.closed = false;
    this.retry = 0;
    /** @type {number | null | undefined} */
    this.seat = undefined; // the seat the server bound this connection to (null: spectator)
    /** @type {ServerMessage | null} */
    this.refusal = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.storeDown = false; // the server said its game store is unavailable (a "store" message)
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.gameId)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.handlers.status?.(this, "open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "state") this.state = msg;
      else if (msg.type === "welcome") this.seat = msg.seat;
      else if (msg.type === "error" && !this.state) this.refusal = msg; // why a hello was refused
      this.handlers.message(this, msg);
    };
    ws.onclose = (ev) => {
      this.handlers.status?.(this, "closed");
      if (this.closed) return;
      if (ev.code === 4403 || ev.code === 4404 || ev.code === 4400) {
        this.closed = true; // wrong token / no such game: retrying will not help
        this.handlers.refused?.(this, ev.code, this.refusal);
        return;
      }
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.open(), delay);
    };
  }

  /**
   * @param {object} obj
   * @returns {boolean} whether it was sent (false: not connected)
   */
  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /**
   * @param {string} text  the move's notation
   * @returns {boolean}
   */
  move(text) {
    return this.send({ type: "move", move: text, position: this.state ? this.state.position : -1 });
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
