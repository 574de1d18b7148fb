/**
 * Installing the language server for a user who does not have it: into a private virtual environment in
 * the extension's global storage, from the wheel the VSIX bundles (`server/hcljson_ls-*.whl`, built by
 * `npm run package`; its dependencies come from the package index pip is configured with).
 *
 * Contract:
 *   - `privateServer(storage)` is the installed `hcljson-ls` of a finished install, or undefined. An install
 *     counts as finished only once its marker file is written, last, so a half-done install is never used.
 *   - `bundledWheel(extensionPath)` is the bundled wheel, or undefined (a VSIX built without one).
 *   - `findPython(trusted)` is the first Python 3.10+ among the Python extension's interpreter (only in a
 *     trusted workspace: there the workspace may choose it) and `python3`, `python` (and `py -3` on Windows)
 *     on PATH; undefined with the list of what was tried otherwise.
 *   - `installServer(...)` creates the environment with that Python's `venv`, installs the wheel with pip and
 *     returns the executable; on failure it removes the environment and throws an Error whose message says
 *     which step failed (the full output went to `log`).
 * Nothing here shows UI: extension.ts asks the user and shows the progress.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findExecutable, pythonExtensionInterpreter } from './serverCommand';

const ENVIRONMENT = 'server-venv';
const MARKER = 'hcljson-ls-install.json';
const MIN_PYTHON: [number, number] = [3, 10];

export interface Python {
    /** The executable and the arguments that select the interpreter (`py -3`). */
    command: string;
    args: string[];
    /** Where it came from, for the output channel. */
    source: string;
}

function environmentDir(storage: string): string {
    return path.join(storage, ENVIRONMENT);
}

function executableIn(environment: string, name: string): string {
    return process.platform === 'win32'
        ? path.join(environment, 'Scripts', `${name}.exe`)
        : path.join(environment, 'bin', name);
}

export function privateServer(storage: string): string | undefined {
    const environment = environmentDir(storage);
    const executable = executableIn(environment, 'hcljson-ls');
    return fs.existsSync(path.join(environment, MARKER)) && fs.existsSync(executable) ? executable : undefined;
}

export function bundledWheel(extensionPath: string): string | undefined {
    const folder = path.join(extensionPath, 'server');
    try {
        const wheels = fs.readdirSync(folder).filter((name) => /^hcljson_ls-.*\.whl$/.test(name)).sort();
        return wheels.length > 0 ? path.join(folder, wheels[wheels.length - 1]) : undefined;
    } catch {
        return undefined;
    }
}

export async function findPython(trusted: boolean, tried: string[]): Promise<Python | undefined> {
    const candidates: Python[] = [];
    if (trusted) {
        const selected = await pythonExtensionInterpreter();
        if (selected) {
            candidates.push({ command: selected, args: [], source: "the Python extension's interpreter" });
        } else {
            tried.push('Python extension (ms-python.python): not installed or no interpreter selected');
        }
    } else {
        tried.push("the Python extension's interpreter: not used in an untrusted workspace");
    }
    for (const name of ['python3', 'python']) {
        const found = findExecutable(name);
        if (found) {
            candidates.push({ command: found, args: [], source: `${name} on PATH` });
        } else {
            tried.push(`${name}: not found on PATH`);
        }
    }
    if (process.platform === 'win32') {
        const launcher = findExecutable('py');
        if (launcher) {
            candidates.push({ command: launcher, args: ['-3'], source: 'the py launcher on PATH' });
        }
    }
    const check = `import sys, venv; sys.exit(0 if sys.version_info >= (${MIN_PYTHON.join(', ')}) else 1)`;
    for (const python of candidates) {
        const result = await run(python.command, [...python.args, '-c', check], 30000);
        if (result.code === 0) {
            return python;
        }
        tried.push(`${python.command} (${python.source}): not Python ${MIN_PYTHON.join('.')}+ with venv`);
    }
    return undefined;
}

export async function installServer(
    storage: string,
    wheel: string,
    python: Python,
    log: (line: string) => void,
    progress: (step: string) => void,
): Promise<string> {
    const environment = environmentDir(storage);
    fs.rmSync(environment, { recursive: true, force: true });
    fs.mkdirSync(storage, { recursive: true });
    try {
        progress('creating a virtual environment');
        await step('python -m venv', python.command, [...python.args, '-m', 'venv', environment], 120000, log);
        progress('installing the server and its dependencies with pip');
        const pip = executableIn(environment, 'python');
        await step(
            'pip install',
            pip,
            ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', wheel],
            600000,
            log,
        );
        const executable = executableIn(environment, 'hcljson-ls');
        await step('hcljson-ls --version', executable, ['--version'], 60000, log);
        fs.writeFileSync(
            path.join(environment, MARKER),
            JSON.stringify({ wheel: path.basename(wheel), python: python.command, installed: new Date().toISOString() }),
        );
        return executable;
    } catch (error) {
        fs.rmSync(environment, { recursive: true, force: true });
        throw error;
    }
}

async function step(name: string, command: string, args: string[], timeoutMs: number, log: (line: string) => void) {
    log(`$ ${[command, ...args].join(' ')}`);
    const result = await run(command, args, timeoutMs);
    const output = (result.stdout + result.stderr).trim();
    if (output) {
        output.split(/\r?\n/).forEach((line) => log(`  ${line}`));
    }
    if (result.code !== 0) {
        throw new Error(`${name} failed (${result.code === null ? 'no exit status' : `exit status ${result.code}`})`);
    }
}

interface RunResult {
    code: number | null;
    stdout: string;
    stderr: string;
}

/**
 * The environment for Python and pip: without the variables that would make the private environment see
 * or install into another place (a PYTHONPATH holding a checkout of hcljson-ls makes pip think the wheel is
 * installed already; PIP_USER/PIP_TARGET/PIP_PREFIX install elsewhere).
 */
function pythonEnvironment(): NodeJS.ProcessEnv {
    const env = { ...process.env };
    for (const name of ['PYTHONPATH', 'PYTHONHOME', 'PYTHONUSERBASE', 'VIRTUAL_ENV', 'PIP_USER', 'PIP_TARGET', 'PIP_PREFIX']) {
        delete env[name];
    }
    return env;
}

function run(command: string, args: string[], timeoutMs: number): Promise<RunResult> {
    return new Promise((resolve) => {
        const options = { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: pythonEnvironment() };
        execFile(command, args, options, (error, stdout, stderr) => {
            const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
            resolve({ code, stdout: String(stdout), stderr: String(stderr) + (error && code === null ? String(error) : '') });
        });
    });
}
