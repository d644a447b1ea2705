// Starts the bare worker and leaves its answer on window.result for the script that opened the page.
const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
const done = (result: unknown) => Object.assign(window, { result });
worker.onmessage = (e: MessageEvent) => done(e.data);
worker.onerror = (e) => done({ error: e.message || 'the worker failed to load' });
