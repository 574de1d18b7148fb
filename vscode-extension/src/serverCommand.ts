/**
 * Finding the command that starts the hcljson-ls language server.
 *
 * Contract: `resolveServerCommand` tries, in order,
 *   1. the `hcljson.server.command` setting (a string is one executable; an array is the executable
 *      followed by its first arguments),
 *   2. an `hcljson-ls` executable on PATH,
 *   3. the extension's own install (bootstrap.ts: a private virtual environment in its global storage),
 *   4. `python -m hcljson_ls` with the interpreter selected in the Python extension (ms-python.python),
 *      when that interpreter can import `hcljson_ls`; only in a trusted workspace, where the workspace
 *      may choose that interpreter,
 * and returns the first that exists, or a `NotFound` listing everything it tried. It never throws and never
 * shows UI: the caller decides what to tell the user. `hcljson.server.args` is appended to whichever command
 * wins; `--stdio` is added later by vscode-languageclient.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { privateServer } from './bootstrap';

export interface ServerCommand {
    command: string;
    args: string[];
    /** Where the command came from, for the output channel. */
    source: string;
}

export interface NotFound {
    /** One line per place that was tried, for the output channel. */
    tried: string[];
    /** True when the user configured `hcljson.server.command` and it does not work. */
    configured: boolean;
}

export type Resolution = { found: ServerCommand } | { notFound: NotFound };

export async function resolveServerCommand(
    config: vscode.WorkspaceConfiguration,
    storage: string,
    trusted: boolean,
): Promise<Resolution> {
    const extraArgs = stringArray(config.get<unknown>('server.args'));
    const tried: string[] = [];

    const configured = config.get<unknown>('server.command');
    const configuredParts = typeof configured === 'string' ? [configured] : stringArray(configured);
    if (configuredParts.length > 0 && configuredParts[0].trim() !== '') {
        const [exe, ...args] = configuredParts;
        const resolved = findExecutable(expandHome(exe));
        if (resolved) {
            return { found: { command: resolved, args: [...args, ...extraArgs], source: 'setting hcljson.server.command' } };
        }
        tried.push(`setting hcljson.server.command: executable ${JSON.stringify(exe)} not found`);
        return { notFound: { tried, configured: true } };
    }

    const onPath = findExecutable('hcljson-ls');
    if (onPath) {
        return { found: { command: onPath, args: extraArgs, source: 'hcljson-ls on PATH' } };
    }
    tried.push('hcljson-ls: not found on PATH');

    const installed = privateServer(storage);
    if (installed) {
        return { found: { command: installed, args: extraArgs, source: `the extension's own install (${installed})` } };
    }
    tried.push(`the extension's own install: none in ${storage}`);

    const python = trusted ? await pythonExtensionInterpreter() : undefined;
    if (!trusted) {
        tried.push("the Python extension's interpreter: not used in an untrusted workspace");
    } else if (python === undefined) {
        tried.push('Python extension (ms-python.python): not installed or no interpreter selected');
    } else if (await canImport(python, 'hcljson_ls')) {
        return {
            found: {
                command: python,
                args: ['-m', 'hcljson_ls', ...extraArgs],
                source: `python -m hcljson_ls with the Python extension's interpreter ${python}`,
            },
        };
    } else {
        tried.push(`Python extension's interpreter ${python}: cannot import hcljson_ls`);
    }
    return { notFound: { tried, configured: false } };
}

function stringArray(value: unknown): string[] {
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function expandHome(p: string): string {
    const home = process.env.HOME ?? process.env.USERPROFILE;
    return home && (p === '~' || p.startsWith('~/')) ? path.join(home, p.slice(1)) : p;
}

/** The absolute path of an executable: `name` itself if it has a directory part, else looked up on PATH. */
export function findExecutable(name: string): string | undefined {
    const isWindows = process.platform === 'win32';
    const extensions = isWindows ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
    const candidates =
        path.isAbsolute(name) || name.includes('/') || (isWindows && name.includes('\\'))
            ? [path.resolve(name)]
            : (process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== '').map((d) => path.join(d, name));
    for (const base of candidates) {
        for (const ext of extensions) {
            const file = base + ext;
            if (isExecutableFile(file)) {
                return file;
            }
        }
    }
    return undefined;
}

function isExecutableFile(file: string): boolean {
    try {
        if (!fs.statSync(file).isFile()) {
            return false;
        }
        if (process.platform !== 'win32') {
            fs.accessSync(file, fs.constants.X_OK);
        }
        return true;
    } catch {
        return false;
    }
}

/** The interpreter selected in the Python extension, through its public API; undefined when there is none. */
export async function pythonExtensionInterpreter(): Promise<string | undefined> {
    const extension = vscode.extensions.getExtension('ms-python.python');
    if (!extension) {
        return undefined;
    }
    try {
        // The API object is untyped here on purpose: we use two documented entry points, defensively.
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const api: any = extension.isActive ? extension.exports : await extension.activate();
        const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
        if (api?.environments?.getActiveEnvironmentPath) {
            const active = api.environments.getActiveEnvironmentPath(resource);
            const resolved = await api.environments.resolveEnvironment(active);
            const executable: unknown = resolved?.executable?.uri?.fsPath ?? active?.path;
            if (typeof executable === 'string' && executable !== '') {
                return executable;
            }
        }
        const details = api?.settings?.getExecutionDetails?.(resource);
        const execCommand: unknown = details?.execCommand?.[0];
        return typeof execCommand === 'string' && execCommand !== '' ? execCommand : undefined;
    } catch {
        return undefined;
    }
}

function canImport(python: string, module: string): Promise<boolean> {
    return new Promise((resolve) => {
        execFile(python, ['-c', `import ${module}`], { timeout: 15000 }, (error) => resolve(error === null));
    });
}
