// Keeps the page's copy of the game in step with the server. The WebSocket sends the whole state
// message first (and again when asked with {"type": "resync"}), then each change as a patch: JSON
// Patch operations (RFC 6902) on the state message, with the version they apply to (`base`) and
// the version they make. A patch that does not follow the copy (a message was missed) or does not
// apply asks for the whole state again, and patches are set aside until it comes.

import { applyPatch } from "../vendor/fast-json-patch/core.mjs";

export class StateFollower {
  // askWhole(): send {"type": "resync"} on the socket.
  constructor(askWhole) {
    this.askWhole = askWhole;
    this.waiting = false;
    this.resyncs = 0;
  }

  // A whole state message: it is the state from now on.
  whole(message) {
    this.waiting = false;
    return message;
  }

  // The state after a patch message, as a new object (the old one is left as it was), or null
  // when the patch cannot be followed (then the whole state has been asked for).
  patched(state, message) {
    if (this.waiting) return null;
    if (state === null || message.base !== state.version) return this.resync();
    let next;
    try {
      next = applyPatch(state, message.ops, true, false).newDocument;
    } catch {
      return this.resync();
    }
    return next.version === message.version ? next : this.resync();
  }

  // The socket was opened again: the server starts with a whole state message.
  reset() {
    this.waiting = false;
  }

  resync() {
    this.waiting = true;
    this.resyncs += 1;
    this.askWhole();
    return null;
  }
}
