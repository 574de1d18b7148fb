// Builds the hcljson-ls wheel from the repository this extension lives in into server/, for the VSIX:
// the extension installs it when a user has no hcljson-ls (src/bootstrap.ts). Run by `npm run package`.
// The Python that builds it: $PYTHON, else python3 (pip builds the wheel in an isolated environment, with
// the build requirements of pyproject.toml from the package index).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const extension = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repository = path.resolve(extension, '..');
const target = path.join(extension, 'server');
const python = process.env.PYTHON || 'python3';

if (!fs.existsSync(path.join(repository, 'pyproject.toml'))) {
    console.error(`bundle-wheel: no pyproject.toml in ${repository}: the extension must be built inside its repository`);
    process.exit(1);
}
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
execFileSync(python, ['-m', 'pip', 'wheel', '--no-deps', '--disable-pip-version-check', '--quiet', '-w', target, repository], {
    stdio: 'inherit',
});
const wheels = fs.readdirSync(target).filter((name) => /^hcljson_ls-.*\.whl$/.test(name));
if (wheels.length !== 1) {
    console.error(`bundle-wheel: expected one hcljson_ls wheel in ${target}, found ${JSON.stringify(wheels)}`);
    process.exit(1);
}
console.log(`bundle-wheel: server/${wheels[0]}`);
