/**
 * The backends' modules as this worker's bundler sees them: the page's Vite splits each into a
 * chunk of its own, loaded only when the worker tries that backend. The package's prebuilt worker
 * gets them by URL instead (BackendModules in the init command; scripts/build/lib-build.ts replaces this
 * file there, so the prebuilt worker carries no backend of its own).
 */
export const BUNDLED_BACKENDS = {
  wasm: () => import('@tensorflow/tfjs-backend-wasm'),
  webgl: () => import('@tensorflow/tfjs-backend-webgl'),
  webgpu: () => import('@tensorflow/tfjs-backend-webgpu'),
};
