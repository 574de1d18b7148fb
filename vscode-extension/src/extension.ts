/**
 * The VS Code client for hcljson-ls.
 *
 * Contract: on the first `terraform-json` document the extension finds the server (see serverCommand.ts),
 * starts it over stdio with vscode-languageclient and keeps one client running. Problems reach the user as
 * ONE notification each (server not found, server failed to start, server keeps crashing), with the
 * details in the "HCL JSON" output channel; never a stack of errors. The `hcljson` settings section is
 * passed to the server as `initializationOptions` and answered on `workspace/configuration`; other changes
 * are sent with `workspace/didChangeConfiguration` (`{settings: {hcljson: {...}}}`), and a change under
 * `hcljson.server` restarts the server instead.
 *
 * Server not found: the notification offers to install it (bootstrap.ts) into a private virtual environment
 * in the extension's global storage, from the wheel the VSIX bundles, with a progress notification; the
 * server then starts from there, now and at every later start (unless `hcljson.server.command` or an
 * `hcljson-ls` on PATH comes first, see serverCommand.ts).
 *
 * Workspace trust: in a workspace VS Code does not trust, every copy of the settings the server gets says
 * `providerSchemas.runTerraform: false` (that command starts provider plugins), the workspace cannot set the
 * settings that name files or commands (package.json's `restrictedConfigurations`), and the Python extension's
 * interpreter (which the workspace may choose) is neither run nor used to install. Granting trust restarts
 * the server.
 */
import * as vscode from 'vscode';
import {
    CloseAction,
    CloseHandlerResult,
    DidChangeConfigurationNotification,
    ErrorAction,
    ErrorHandler,
    ErrorHandlerResult,
    LanguageClient,
    LanguageClientOptions,
    Location as ProtocolLocation,
    Position as ProtocolPosition,
    RevealOutputChannelOn,
    ServerOptions,
    TransportKind,
} from 'vscode-languageclient/node';
import { bundledWheel, findPython, installServer } from './bootstrap';
import { resolveServerCommand } from './serverCommand';

const LANGUAGE_ID = 'terraform-json';
const SECTION = 'hcljson';
/** The command of the server's reference-count code lenses (uri, position, locations). */
const SHOW_REFERENCES = 'editor.action.showReferences';
/** hcljson-ls is not published on PyPI: it installs from a checkout (or `pipx install git+<its URL>`). */
const INSTALL_HINT = 'pipx install <a checkout of hcljson-ls>';
/** More crashes than this within CRASH_WINDOW_MS stop the automatic restarts. */
const MAX_CRASHES = 4;
const CRASH_WINDOW_MS = 3 * 60 * 1000;

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let extensionContext: vscode.ExtensionContext;
/** True while an install runs: a second offer is not shown meanwhile. */
let installing = false;
/** Serializes start/stop so that a restart never overlaps another one. */
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): void {
    output = vscode.window.createOutputChannel('HCL JSON');
    extensionContext = context;
    context.subscriptions.push(
        output,
        vscode.commands.registerCommand('hcljson.restartServer', () => queue(restart)),
        vscode.commands.registerCommand('hcljson.showOutput', () => output.show(true)),
        vscode.commands.registerCommand('hcljson.validateWithTerraform', () => validateActiveDocument()),
        vscode.commands.registerCommand('hcljson.renameWithMoved', (uri: unknown, position: unknown, oldName: unknown) =>
            renameWithMoved(uri, position, oldName),
        ),
        vscode.workspace.onDidGrantWorkspaceTrust(() => {
            log('The workspace is trusted now: restarting the server with its settings.');
            void queue(restart);
        }),
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (event.affectsConfiguration(`${SECTION}.server`)) {
                log('Server settings changed: restarting the server.');
                void queue(restart);
            } else if (event.affectsConfiguration(SECTION) && client?.isRunning()) {
                // The payload vscode-languageclient's `synchronize.configurationSection` would send.
                client
                    .sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settingsSnapshot() } })
                    .catch((error) => log(`Sending the new settings failed: ${String(error)}`));
            }
        }),
    );
    void queue(start);
}

export function deactivate(): Thenable<void> | undefined {
    return queue(stop);
}

function queue(step: () => Promise<void>): Promise<void> {
    pending = pending.then(step, step);
    return pending;
}

async function restart(): Promise<void> {
    await stop();
    await start();
}

async function stop(): Promise<void> {
    const running = client;
    client = undefined;
    if (running) {
        await disposeClient(running);
    }
}

/** Stops and disposes a client in whatever state it is (running, failed to start, stopped). */
async function disposeClient(languageClient: LanguageClient): Promise<void> {
    try {
        if (languageClient.isRunning()) {
            await languageClient.stop(5000);
        }
    } catch (error) {
        log(`Stopping the server failed: ${String(error)}`);
    }
    try {
        await languageClient.dispose();
    } catch {
        // Disposing a client that never ran throws "not running": nothing is left to clean up.
    }
}

async function start(): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const resolution = await resolveServerCommand(config, storageDir(), vscode.workspace.isTrusted);
    if ('notFound' in resolution) {
        log('Could not find the hcljson-ls language server. Tried:');
        resolution.notFound.tried.forEach((line) => log(`  - ${line}`));
        if (resolution.notFound.configured) {
            void notify(
                `HCL JSON: the language server command in the setting "hcljson.server.command" was not found. ` +
                    `Fix the setting, or remove it and install the server with "${INSTALL_HINT}".`,
            );
        } else if (bundledWheel(extensionContext.extensionPath) !== undefined) {
            void offerInstall();
        } else {
            void notify(
                `HCL JSON: the language server hcljson-ls was not found. Install it with "${INSTALL_HINT}" ` +
                    `(it then needs to be on PATH), or set "hcljson.server.command".`,
            );
        }
        return;
    }
    const { command, args, source } = resolution.found;
    log(`Starting ${[command, ...args, '--stdio'].join(' ')} (from ${source})`);

    const extraEnv = config.get<Record<string, string>>('server.env') ?? {};
    const serverOptions: ServerOptions = {
        command,
        args,
        transport: TransportKind.stdio,
        options: { env: { ...process.env, ...extraEnv } },
    };
    const errorHandler = new QuietErrorHandler();
    const clientOptions: LanguageClientOptions = {
        documentSelector: [
            { scheme: 'file', language: LANGUAGE_ID },
            { scheme: 'untitled', language: LANGUAGE_ID },
        ],
        initializationOptions: () => settingsSnapshot(),
        middleware: {
            // A reference-count lens runs `editor.action.showReferences`, which wants VS Code's own types:
            // the server sends JSON (uri, position, locations), converted here.
            resolveCodeLens: async (lens, token, next) => {
                const resolved = await next(lens, token);
                return resolved && client ? withShowReferences(resolved, client) : resolved;
            },
            workspace: {
                // The server asks for the `hcljson` section: answer it with the trust rule applied too.
                configuration: async (params, token, next) => {
                    const result = await next(params, token);
                    if (!Array.isArray(result)) {
                        return result;
                    }
                    return result.map((value: unknown, i: number) =>
                        params.items[i]?.section === SECTION ? restrictedByTrust(value) : value,
                    );
                },
            },
        },
        outputChannel: output,
        traceOutputChannel: output,
        revealOutputChannelOn: RevealOutputChannelOn.Never,
        errorHandler,
        initializationFailedHandler: (error) => {
            log(`The server failed to initialize: ${String(error)}`);
            return false;
        },
    };
    // The id "hcljson" makes vscode-languageclient read the "hcljson.trace.server" setting.
    const newClient = new QuietLanguageClient(SECTION, 'HCL JSON', serverOptions, clientOptions);
    client = newClient;
    try {
        await newClient.start();
        if (!newClient.isRunning()) {
            throw new Error('the server stopped while starting');
        }
        errorHandler.initialized = true;
        const info = newClient.initializeResult?.serverInfo;
        log(`Server ready: ${info ? `${info.name} ${info.version ?? ''}`.trim() : 'hcljson-ls'}`);
    } catch (error) {
        log(`The server failed to start: ${String(error)}`);
        if (client === newClient) {
            client = undefined;
        }
        await disposeClient(newClient);
        void notify(
            `HCL JSON: the language server (${command}) failed to start. See the "HCL JSON" output for details; ` +
                `if it is not installed, run "${INSTALL_HINT}".`,
        );
    }
}

function storageDir(): string {
    return extensionContext.globalStorageUri.fsPath;
}

const INSTALL = 'Install';

/** Offers to install the bundled server; on "Install", installs it with a progress notification and starts it. */
async function offerInstall(): Promise<void> {
    if (installing) {
        return;
    }
    const message =
        'HCL JSON: the language server hcljson-ls was not found. Install it for this extension (a private ' +
        `Python environment; needs Python 3.10+ and pip's package index), or install it yourself with "${INSTALL_HINT}".`;
    if (lastNotification === message) {
        return;
    }
    lastNotification = message;
    const choice = await vscode.window.showInformationMessage(message, INSTALL, 'Show Output', 'Open Settings');
    lastNotification = undefined;
    if (choice === 'Show Output') {
        output.show(true);
    } else if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
    } else if (choice === INSTALL) {
        await install();
    }
}

async function install(): Promise<void> {
    const wheel = bundledWheel(extensionContext.extensionPath);
    if (installing || wheel === undefined) {
        return;
    }
    installing = true;
    try {
        const installed = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: 'HCL JSON: installing the language server', cancellable: false },
            async (progress) => {
                const tried: string[] = [];
                progress.report({ message: 'looking for Python' });
                const python = await findPython(vscode.workspace.isTrusted, tried);
                if (python === undefined) {
                    tried.forEach((line) => log(`  - ${line}`));
                    throw new Error('no Python 3.10 or newer (with venv) was found');
                }
                log(`Installing ${wheel} into ${storageDir()} with ${python.command} (${python.source})`);
                return installServer(storageDir(), wheel, python, log, (step) => progress.report({ message: step }));
            },
        );
        log(`Installed the language server: ${installed}`);
    } catch (error) {
        log(`Installing the language server failed: ${String(error)}`);
        void notify(
            `HCL JSON: installing the language server failed: ${error instanceof Error ? error.message : String(error)}. ` +
                `See the "HCL JSON" output; or install it yourself with "${INSTALL_HINT}".`,
        );
        return;
    } finally {
        installing = false;
    }
    await queue(restart);
}

/**
 * "Validate with terraform": the server's `hcljson.validate` command for the active document's module
 * (`workspace/executeCommand`). vscode-languageclient registers `hcljson.validate` itself, but a palette
 * command has no argument: this one passes the active document's URI.
 */
async function validateActiveDocument(): Promise<void> {
    const document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.languageId !== LANGUAGE_ID) {
        void vscode.window.showWarningMessage('Validate with terraform: open a Terraform JSON file first.');
        return;
    }
    if (client === undefined || !client.isRunning()) {
        void vscode.window.showWarningMessage('Validate with terraform: the HCL JSON server is not running.');
        return;
    }
    try {
        await client.sendRequest('workspace/executeCommand', {
            command: 'hcljson.validate',
            arguments: [document.uri.toString()],
        });
    } catch (error) {
        void vscode.window.showErrorMessage(`Validate with terraform: ${error instanceof Error ? error.message : String(error)}`);
    }
}

/**
 * "Rename and add a moved block" (the server's code action on a resource's or module call's name): asks for
 * the new name, prefilled with the old one, then runs the server's `hcljson.applyRenameWithMoved` with
 * (uri, position, new name); the server sends the rename and the `moved` entry as one `workspace/applyEdit`.
 * A name the server refuses (taken, reserved, no identifier) is shown with the server's reason.
 */
async function renameWithMoved(uri: unknown, position: unknown, oldName: unknown): Promise<void> {
    if (typeof uri !== 'string' || typeof position !== 'object' || position === null) {
        return;
    }
    if (client === undefined || !client.isRunning()) {
        void vscode.window.showWarningMessage('Rename and add a moved block: the HCL JSON server is not running.');
        return;
    }
    const old = typeof oldName === 'string' ? oldName : '';
    const newName = await vscode.window.showInputBox({
        title: 'Rename and add a moved block',
        prompt: 'The new name; a moved block keeps the object in the Terraform state.',
        value: old,
        valueSelection: [0, old.length],
        validateInput: (value) => (/^[\p{L}_][\p{L}\p{N}_-]*$/u.test(value) ? undefined : 'Use letters, digits, underscores and dashes, starting with a letter or underscore.'),
    });
    if (newName === undefined || newName === old) {
        return;
    }
    try {
        await client.sendRequest('workspace/executeCommand', {
            command: 'hcljson.applyRenameWithMoved',
            arguments: [uri, position, newName],
        });
    } catch (error) {
        void vscode.window.showErrorMessage(`Rename: ${error instanceof Error ? error.message : String(error)}`);
    }
}

/** A JSON copy of the `hcljson` settings section, as the server receives it in `initializationOptions`. */
function settingsSnapshot(): unknown {
    return restrictedByTrust(JSON.parse(JSON.stringify(vscode.workspace.getConfiguration(SECTION))));
}

/** The `hcljson` section as an untrusted workspace may have it: never running `providers schema -json`. */
function restrictedByTrust(section: unknown): unknown {
    if (vscode.workspace.isTrusted || section === null || typeof section !== 'object' || Array.isArray(section)) {
        return section;
    }
    const settings = section as Record<string, unknown>;
    const schemas = settings.providerSchemas;
    const current = schemas !== null && typeof schemas === 'object' && !Array.isArray(schemas) ? schemas : {};
    return { ...settings, providerSchemas: { ...current, runTerraform: false } };
}

/**
 * A LanguageClient that logs its errors to the output channel but never shows notifications of its own
 * (it would otherwise stack "couldn't create connection", "Restarting server failed", ...): this
 * extension shows one notification per problem itself.
 */
class QuietLanguageClient extends LanguageClient {
    override error(message: string, data?: unknown, _showNotification?: boolean | 'force'): void {
        super.error(message, data, false);
    }
}

/**
 * Restarts a crashed server a few times, then gives up with one notification. A server that stops
 * before it finished initializing is not restarted: `start` reports that failure once.
 */
class QuietErrorHandler implements ErrorHandler {
    /** Set once the server answered `initialize`. */
    initialized = false;
    private readonly crashes: number[] = [];

    error(error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
        log(`Connection error: ${error.message}`);
        return { action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
    }

    closed(): CloseHandlerResult {
        if (!this.initialized) {
            return { action: CloseAction.DoNotRestart, handled: true };
        }
        const now = Date.now();
        this.crashes.push(now);
        while (this.crashes.length > 0 && now - this.crashes[0] > CRASH_WINDOW_MS) {
            this.crashes.shift();
        }
        if (this.crashes.length > MAX_CRASHES) {
            log(`The server stopped ${this.crashes.length} times in a few minutes: not restarting it.`);
            void notify(
                'HCL JSON: the language server keeps stopping. See the "HCL JSON" output, then run ' +
                    '"HCL JSON: Restart Server".',
            );
            return { action: CloseAction.DoNotRestart, handled: true };
        }
        log('The server stopped unexpectedly: restarting it.');
        return { action: CloseAction.Restart, handled: true };
    }
}

let lastNotification: string | undefined;

/** Shows one error notification with buttons; the same message is not stacked while it is still open. */
async function notify(message: string): Promise<void> {
    if (lastNotification === message) {
        return;
    }
    lastNotification = message;
    const choice = await vscode.window.showErrorMessage(message, 'Show Output', 'Open Settings');
    lastNotification = undefined;
    if (choice === 'Show Output') {
        output.show(true);
    } else if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
    }
}

function log(message: string): void {
    output.appendLine(`[${new Date().toISOString()}] ${message}`);
}

/** `lens` with the JSON arguments of `editor.action.showReferences` turned into VS Code's types. */
function withShowReferences(lens: vscode.CodeLens, running: LanguageClient): vscode.CodeLens {
    const command = lens.command;
    if (command?.command !== SHOW_REFERENCES || !Array.isArray(command.arguments) || command.arguments.length !== 3) {
        return lens;
    }
    const [uri, position, locations] = command.arguments as [string, ProtocolPosition, ProtocolLocation[]];
    const p2c = running.protocol2CodeConverter;
    lens.command = {
        ...command,
        arguments: [p2c.asUri(uri), p2c.asPosition(position), locations.map((location) => p2c.asLocation(location))],
    };
    return lens;
}
