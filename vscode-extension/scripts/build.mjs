// Bundles src/extension.ts and vscode-languageclient into dist/extension.js (CommonJS, Node, `vscode` external).
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const options = {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
    sourcemap: watch,
    minify: !watch,
    logLevel: 'info',
};
if (watch) {
    await (await esbuild.context(options)).watch();
} else {
    await esbuild.build(options);
}
