// A plain webpack 5 site's config: a JavaScript entry and its CSS through css-loader and
// style-loader. Nothing in it is about the plate: webpack emits the plate's files as assets,
// seeing each as `new URL('./plate-<version>/…', import.meta.url)`.
import { resolve } from 'node:path';

export default {
  mode: 'production',
  entry: './src/index.js',
  output: { path: resolve(import.meta.dirname, 'dist'), filename: 'main.js', clean: true },
  module: { rules: [{ test: /\.css$/i, use: ['style-loader', 'css-loader'] }] },
};
