/**
 * The training worker's entry: one listener, commands checked before use, the only caller of
 * postMessage, and a heartbeat for the page's watchdog. Everything else lives in session.ts
 * (the driver), session-table.ts (the command table), backend.ts and checkpoint-fetch.ts.
 */
/// <reference lib="webworker" />
import { setFused } from '../model/fused/module';
import { isCommand } from '../protocol/guards';
import type { WorkerEvent } from '../protocol/messages';
import { selectBackend } from './backend-race';
import { fetchCheckpoint } from './checkpoint-fetch';
import { WorkerSession } from './session';

declare const self: DedicatedWorkerGlobalScope;

const post = (event: WorkerEvent) => self.postMessage(event);

// The bench pairs the fused kernels with tfjs's own ops (npm run bench -- kernels): its harness
// starts this worker from a script URL ending in ?kernels=unfused. The page never does, and its
// protocol has no say in it; ready still reports which kernels ran.
if (new URLSearchParams(self.location.search).get('kernels') === 'unfused') setFused(false);

// warmUp: the reader usually reads before pressing Run; the idle worker spends that on tier-up.
const session = new WorkerSession({
  post,
  selectBackend,
  fetchCheckpoint: (url) => fetchCheckpoint(url),
  warmUp: true,
});

self.addEventListener('message', (e: MessageEvent<unknown>) => {
  if (!isCommand(e.data)) {
    console.warn('training worker: ignored a malformed or unknown command', e.data);
    return;
  }
  session.handle(e.data);
});

// Fires whenever the event loop is free: between steps, and while a GPU backend computes.
setInterval(() => post({ type: 'alive' }), 1000);
