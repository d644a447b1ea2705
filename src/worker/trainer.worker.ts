/**
 * The training worker's entry: one listener, commands checked before use, and the only caller
 * of postMessage. Everything else lives in session.ts (the state machine), backend.ts and
 * checkpoint-fetch.ts.
 */
/// <reference lib="webworker" />
import { selectBackend } from './backend';
import { fetchCheckpoint } from './checkpoint-fetch';
import { isCommand, type WorkerEvent } from './protocol';
import { TrainerSession } from './session';

declare const self: DedicatedWorkerGlobalScope;

const session = new TrainerSession({
  post: (event: WorkerEvent) => self.postMessage(event),
  selectBackend,
  fetchCheckpoint: (url) => fetchCheckpoint(url),
});

self.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (!isCommand(e.data)) {
    console.warn('trainer worker: ignored a malformed or unknown command', e.data);
    return;
  }
  session.handle(e.data);
});
