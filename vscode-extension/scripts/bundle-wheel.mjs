// Builds the hcljson-ls wheel from the repository this extension lives in into server/, for the VSIX:
// the extension installs it when a user has no hcljson-ls (src/bootstrap.ts). Run by `npm run package`.
// The Python that builds it: $PYTHON, else python3 (pip builds the wheel in an isolated environment, with
// the build requirements of pyproject.toml from the package index).
// It builds from a copy of the project's files in a temporary directory, not in the repository: setuptools
// writes build/ and server/*.egg-info where it builds, and two builds of one tree at once (a test run's
// workers, an editor's build beside a terminal's) fail on each other's files ("File exists:
// build/bdist.linux-x86_64/wheel/...dist-info", seen in a test run). The files are those a wheel is made
// of (tests/test_packaging.py copies the same, and tests/test_docs_install.py checks that they agree).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const extension = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repository = path.resolve(extension, '..');
const target = path.join(extension, 'server');
const python = process.env.PYTHON || 'python3';
const PROJECT_FILES = ['pyproject.toml', 'setup.py', 'MANIFEST.in', 'README.md', 'LICENSE'];
const PROJECT_DIRS = ['server', 'grammars', 'docs'];
const SKIPPED = new Set(['__pycache__', '.mypy_cache']);

function copyProject(into) {
    for (const name of PROJECT_FILES) {
        if (fs.existsSync(path.join(repository, name))) fs.copyFileSync(path.join(repository, name), path.join(into, name));
    }
    for (const name of PROJECT_DIRS) {
        fs.cpSync(path.join(repository, name), path.join(into, name), {
            recursive: true,
            filter: (source) => !SKIPPED.has(path.basename(source)) && !source.endsWith('.egg-info'),
        });
    }
}

if (!fs.existsSync(path.join(repository, 'pyproject.toml'))) {
    console.error(`bundle-wheel: no pyproject.toml in ${repository}: the extension must be built inside its repository`);
    process.exit(1);
}
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
const source = fs.mkdtempSync(path.join(os.tmpdir(), 'hcljson-ls-wheel-'));
try {
    copyProject(source);
    execFileSync(python, ['-m', 'pip', 'wheel', '--no-deps', '--disable-pip-version-check', '--quiet', '-w', target, source], {
        stdio: 'inherit',
    });
} finally {
    fs.rmSync(source, { recursive: true, force: true });
}
const wheels = fs.readdirSync(target).filter((name) => /^hcljson_ls-.*\.whl$/.test(name));
if (wheels.length !== 1) {
    console.error(`bundle-wheel: expected one hcljson_ls wheel in ${target}, found ${JSON.stringify(wheels)}`);
    process.exit(1);
}
console.log(`bundle-wheel: server/${wheels[0]}`);
