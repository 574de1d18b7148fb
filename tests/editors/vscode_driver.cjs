// Drives VS Code (code-server) in headless Chromium for tests/editors/test_vscode.py.
//
// Usage: node vscode_driver.cjs CONFIG.json
// CONFIG: {
//   "toolsDir": dir whose node_modules holds playwright-core,
//   "chromium": path of the Chromium executable,
//   "url": code-server URL with ?folder=...,
//   "file": name of the file to open (as shown in the Explorer),
//   "hoverWord": a key to hover for a server hover, or null to skip that step,
//   "hovers": [{"name", "line", "word", "screenshot"}]: after the hoverWord step, hover `word` at its first
//             occurrence inside the text `line` (e.g. region in "${var.region}", wherever the tokens split),
//             record the hover text as result.hovers[name] (null if no hover appeared) and, if given, take
//             a screenshot of it to the path `screenshot`,
//   "screenshot": path of the PNG to write,
//   "timeoutMs": budget for each wait,
//   "outline": true to read the Outline view (document symbols),
//   "completion": true to type `"` on a new top-level line and read the suggestions (done last: it edits),
//   "typeCompletion": {"line", "word", "type", "pick"}: after "completion", click just after `word` at its first
//             occurrence inside the text `line`, type `type` (e.g. `-${var.`), wait for the suggest widget to
//             show `pick`, accept the focused item with Enter and record the rendered line
//             (result.typedCompletion: {rows, focused, line}),
//   "install": {"notification", "click", "progress", "timeoutMs"}: right after the editor opens, wait for the
//             notification containing "notification", record it (result.install.offer), click its button
//             "click", record whether a notification containing "progress" showed (result.install.progress),
//             and allow "timeoutMs" for the first squiggle (the server starts once installed),
//   "formatOnSave": [{"file", "path"}]: done last: open each file from the Explorer, type a space at the end
//             of its first line (the formatter removes it), save with Ctrl+S and wait until the file at
//             `path` changes on disk; record its language mode and its text (result.formatOnSave[file]),
//   "command": {"title"}: before reading the Problems panel, run the command palette entry `title` (F1, type
//             it, Enter) with the editor focused; result.command records the palette row chosen,
//   "problemsInclude": [text, ...]: before reading the Problems panel, wait (up to "timeoutMs") for a row
//             containing each text (a diagnostic that arrives late); the rows are read either way,
//   "features": {"lensTitle", "hintLine", "hint", "complete": {"line", "word", "pick"}}: instead of every
//             other step (the workspace has no error to wait for; lenses and inlay hints are on): wait for a
//             code lens reading `lensTitle`, record every lens (result.features.lenses), click that one and
//             record the references peek it opens (peekHead, peekRows); record each rendered line holding
//             `hintLine` once one of them shows the inlay hint `hint` (hintLines); then click after `word`
//             in the line `line`, type `,` Enter `"`, ask for suggestions, wait for `pick` and record the
//             rows (completionRows: aria-label and text), the focused row and its details pane,
//   "scenarios": [{"name", "settingsPath", "settings", "notification", "squiggles"}]: after the main checks,
//               write each settings file in turn, wait for a notification containing "notification" (if
//               given) and for the squiggle to be there or not ("squiggles": true/false, if given), then
//               record the notifications and squiggles seen. Use the workspace's .vscode/settings.json:
//               code-server does not notice changes made to the user settings file behind its back.
// }
// Prints ONE JSON line on stdout with what it observed (the Python test asserts on it) and exits 0;
// on a failure it still prints what it has, with "error" set, takes the screenshot, and exits 1.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const { chromium } = createRequire(path.join(config.toolsDir, 'package.json'))('playwright-core');
const timeout = config.timeoutMs ?? 60000;
const result = { steps: [] };
const t0 = Date.now();

function step(name) {
    result.steps.push({ name, ms: Date.now() - t0 });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Moves the mouse onto (x, y) the way a person would: from the gutter of the same line, in steps. */
async function hoverAt(page, x, y) {
    const gutter = await page.locator('.monaco-editor .margin').first().boundingBox();
    await page.mouse.move(gutter.x + 5, y);
    await sleep(500);
    await page.mouse.move(x, y, { steps: 8 });
}

/** Text of the visible hover widget, or null if none appeared within `ms`. */
async function hoverText(page, ms) {
    const hover = page.locator('.monaco-hover:not(.hidden) .hover-contents').first();
    try {
        await hover.waitFor({ state: 'visible', timeout: ms });
    } catch {
        return null;
    }
    await sleep(300); // let every hover part render
    return (await page.locator('.monaco-hover:not(.hidden)').first().innerText()).trim();
}

/** The screen box of `word` at its first occurrence inside `needle` on a rendered editor line, or null. */
async function wordInLineBox(page, needle, word) {
    return page.evaluate(({ needle, word }) => {
        // VS Code renders spaces as U+00A0; tokens (TextMate and semantic) split a line into nested spans.
        const plain = (t) => t.replace(/\u00a0/g, ' ');
        for (const line of document.querySelectorAll('.editor-instance .view-line')) {
            const text = plain(line.textContent);
            const at = text.indexOf(needle);
            if (at < 0) {
                continue;
            }
            const start = at + needle.indexOf(word);
            const end = start + word.length;
            // Map the line offsets onto its text nodes.
            const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
            const range = document.createRange();
            let offset = 0;
            let started = false;
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const length = node.textContent.length;
                if (!started && start < offset + length) {
                    range.setStart(node, start - offset);
                    started = true;
                }
                if (started && end <= offset + length) {
                    range.setEnd(node, end - offset);
                    const r = range.getBoundingClientRect();
                    return { x: r.x, y: r.y, width: r.width, height: r.height };
                }
                offset += length;
            }
        }
        return null;
    }, { needle, word });
}

/**
 * The box of a locator's element once it is visible. A view line is rendered again when the
 * server's semantic tokens arrive, which can detach the element found a moment before (its box is
 * then null): on a loaded machine that happened between finding a word and hovering it.
 */
async function visibleBox(page, locator) {
    for (let attempt = 0; attempt < 5; attempt++) {
        await locator.waitFor({ state: 'visible', timeout: 10000 });
        const box = await locator.boundingBox();
        if (box) {
            return box;
        }
        await page.waitForTimeout(500);
    }
    throw new Error('the element never stayed visible long enough to be measured');
}

async function hoverWithRetry(page, box) {
    for (let attempt = 0; attempt < 3; attempt++) {
        await hoverAt(page, box.x + box.width / 2, box.y + box.height / 2);
        const text = await hoverText(page, 5000);
        if (text) {
            return text;
        }
    }
    return null;
}

const clean = (text) => text.replace(/\s+/g, ' ').trim();

/** The "features" scenario (see CONFIG): code lens and its references peek, inlay hints, module inputs. */
async function features(page, spec) {
    const out = {};
    result.features = out;
    // Lenses are resolved lazily (the count arrives after the lens): wait for the one that names the count.
    const lens = page.locator('.codelens-decoration a', { hasText: spec.lensTitle }).first();
    await lens.waitFor({ timeout });
    await sleep(500);
    out.lenses = (await page.locator('.codelens-decoration').allInnerTexts()).map(clean);
    step('lens');
    await lens.click();
    const rows = page.locator('.peekview-widget .monaco-list-row');
    await rows.first().waitFor({ timeout: 15000 });
    await sleep(800);
    out.peekHead = clean(await page.locator('.peekview-widget .head').first().innerText());
    out.peekRows = (await rows.allInnerTexts()).map(clean);
    step('lens peek');
    await page.keyboard.press('Escape');
    await sleep(300);

    // Inlay hints are text injected into the rendered line.
    const linesWith = (needle) => page.evaluate((needle) => [...document.querySelectorAll('.editor-instance .view-line')]
        .map((line) => line.textContent.replace(/\u00a0/g, ' '))
        .filter((text) => text.includes(needle)), needle);
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline && !(await linesWith(spec.hintLine)).some((text) => text.includes(spec.hint))) {
        await sleep(200);
    }
    out.hintLines = await linesWith(spec.hintLine);
    step('inlay hints');

    // A new member of the module call's body: its child module's inputs are suggested.
    const box = await wordInLineBox(page, spec.complete.line, spec.complete.word);
    if (!box) {
        throw new Error(`no rendered line contains ${JSON.stringify(spec.complete.line)}`);
    }
    await page.mouse.click(box.x + box.width - 1, box.y + box.height / 2);
    await page.keyboard.press('End');
    await page.keyboard.type(',');
    await page.keyboard.press('Enter');
    await page.keyboard.type('"');
    await sleep(500);
    const suggestions = page.locator('.suggest-widget.visible .monaco-list-row');
    // `"` may have opened the suggestions already (a trigger character): then Ctrl+Space would toggle details.
    if (!(await suggestions.count())) {
        await page.keyboard.press('Control+Space');
    }
    await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: spec.complete.pick }).first()
        .waitFor({ timeout: 15000 })
        .catch(() => undefined); // recorded below
    await sleep(500);
    out.completionRows = await suggestions.evaluateAll((els) => els.map((e) => ({
        label: e.getAttribute('aria-label'),
        text: e.textContent.replace(/\s+/g, ' ').trim(),
    })));
    const focused = page.locator('.suggest-widget.visible .monaco-list-row.focused').first();
    out.focused = (await focused.count()) ? clean(await focused.innerText()) : null;
    // Ctrl+Space while the suggestions show toggles the focused one's details (its documentation).
    const details = page.locator('.suggest-details-container .suggest-details').first();
    if (!(await details.isVisible())) {
        await page.keyboard.press('Control+Space');
    }
    out.details = await details.waitFor({ state: 'visible', timeout: 5000 })
        .then(async () => { await sleep(300); return clean(await details.innerText()); }, () => null);
    step('module input completion');
    fs.mkdirSync(path.dirname(config.screenshot), { recursive: true });
    await page.screenshot({ path: config.screenshot });
    await page.keyboard.press('Escape');
}

async function main() {
    const browser = await chromium.launch({
        executablePath: config.chromium,
        headless: true,
        args: [
            '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage',
        ],
    });
    let page;
    try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
        page = await context.newPage();
        page.setDefaultTimeout(timeout);
        await page.goto(config.url);
        await page.locator('.monaco-workbench').waitFor();
        step('workbench');

        // Open the file from the Explorer (the workspace opens with it showing).
        const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${config.file}"]`).first();
        await row.waitFor();
        await row.click();
        await page.locator('.editor-instance .view-lines').first().waitFor();
        await page.locator('.view-lines .view-line').first().waitFor();
        step('editor');
        if (config.features) {
            await features(page, config.features);
            step('done');
            return; // (the result is written after `finally`)
        }

        // No server yet: accept the extension's offer to install it.
        let squiggleTimeout = timeout;
        if (config.install) {
            result.install = {};
            const offer = page.locator('.notification-toast', { hasText: config.install.notification }).first();
            await offer.waitFor();
            result.install.offer = (await offer.innerText()).replace(/\s+/g, ' ').trim();
            step('install offer');
            await offer.locator('.monaco-button', { hasText: config.install.click }).first().click();
            result.install.progress = await page
                .locator('.notification-toast', { hasText: config.install.progress })
                .first()
                .waitFor({ timeout: 30000 })
                .then(() => true, () => false);
            step('install progress');
            squiggleTimeout = config.install.timeoutMs ?? timeout;
        }

        // Diagnostics: the squiggle and the status bar's Problems count.
        const squiggle = page.locator('.editor-instance .squiggly-error').first();
        await squiggle.waitFor({ timeout: squiggleTimeout });
        step('squiggle');
        result.squiggles = await page.locator('.editor-instance .squiggly-error').count();
        const problems = page.locator('#status\\.problems');
        await problems.waitFor();
        result.problemsStatus = (await problems.innerText()).replace(/\s+/g, ' ').trim();
        result.problemsAriaLabel = await problems.locator('a, .statusbar-item-label').first().getAttribute('aria-label');

        // Language mode chosen by the extension's contribution (the status bar shows "Plain Text" until
        // extensions are loaded).
        const mode = page.locator('#status\\.editor\\.mode');
        await page
            .waitForFunction(() => {
                const label = document.querySelector('#status\\.editor\\.mode');
                return label && !/plain text/i.test(label.textContent);
            }, null, { timeout: 10000 })
            .catch(() => undefined);
        result.languageMode = (await mode.innerText()).trim();
        // Colouring: the TextMate grammar gives tokens several distinct token classes (mtk1, mtk2, ...).
        result.tokenClasses = await page.evaluate(() => {
            const classes = new Set();
            document.querySelectorAll('.editor-instance .view-line span span').forEach((s) => {
                s.classList.forEach((c) => c.startsWith('mtk') && classes.add(c));
            });
            return [...classes].sort();
        });

        // Hover on the error range shows the diagnostic (message, source and code).
        result.errorHover = await hoverWithRetry(page, await visibleBox(page, squiggle));
        step('error hover');
        await page.mouse.move(5, 5);
        await page.keyboard.press('Escape');

        // Hover on a key, answered by the server's hover provider.
        if (config.hoverWord) {
            const word = page.locator('.editor-instance .view-line span span', { hasText: config.hoverWord }).first();
            result.wordHover = await hoverWithRetry(page, await visibleBox(page, word));
            step('word hover');
            await page.mouse.move(5, 5);
            await page.keyboard.press('Escape');
        }

        // Hovers on words inside a line (e.g. a reference inside a JSON string), answered by the server.
        result.hovers = {};
        for (const spec of config.hovers ?? []) {
            const box = await wordInLineBox(page, spec.line, spec.word);
            if (!box) {
                throw new Error(`no rendered line contains ${JSON.stringify(spec.line)}`);
            }
            result.hovers[spec.name] = await hoverWithRetry(page, box);
            if (spec.screenshot) {
                fs.mkdirSync(path.dirname(spec.screenshot), { recursive: true });
                await page.screenshot({ path: spec.screenshot });
            }
            step(`hover: ${spec.name}`);
            await page.mouse.move(5, 5);
            await page.keyboard.press('Escape');
        }

        // A command from the palette, as a person runs it (its diagnostics are awaited by problemsInclude).
        if (config.command) {
            await page.locator('.editor-instance .view-line').first().click();
            await page.keyboard.press('F1');
            const input = page.locator('.quick-input-widget input').first();
            await input.waitFor();
            await input.fill(`>${config.command.title}`);
            const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: config.command.title }).first();
            await pick.waitFor();
            result.command = clean(await pick.innerText());
            await page.keyboard.press('Enter');
            step(`command: ${config.command.title}`);
        }

        // The Problems panel lists every diagnostic of the file.
        await page.locator('#status\\.problems').click();
        const markerRows = page.locator('.markers-panel .monaco-list-row');
        await markerRows.first().waitFor();
        for (const text of config.problemsInclude ?? []) {
            // A diagnostic that arrives later (e.g. once provider schemas are fetched): wait for its row.
            await page.locator('.markers-panel .monaco-list-row', { hasText: text }).first()
                .waitFor({ timeout })
                .catch(() => undefined);
            step(`problem: ${text}`);
        }
        await sleep(300);
        result.problemRows = (await markerRows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());

        if (config.outline) {
            const header = page.locator('.pane-header', { hasText: 'Outline' }).first();
            if ((await header.getAttribute('aria-expanded')) !== 'true') {
                await header.click();
            }
            const rows = page.locator('.outline-pane .monaco-list-row');
            await rows.first().waitFor();
            await sleep(500);
            result.outline = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
            step('outline');
        }

        // The screenshot for the README: the error hover over the file, Problems panel open.
        await hoverWithRetry(page, await visibleBox(page, squiggle));
        await sleep(300);
        fs.mkdirSync(path.dirname(config.screenshot), { recursive: true });
        await page.screenshot({ path: config.screenshot });
        step('screenshot');
        await page.mouse.move(5, 5);

        // Settings changes: each scenario writes a settings file, then records the notifications that appear
        // and whether the squiggle is there once things settle.
        result.scenarios = [];
        for (const scenario of config.scenarios ?? []) {
            fs.mkdirSync(path.dirname(scenario.settingsPath), { recursive: true });
            fs.writeFileSync(scenario.settingsPath, JSON.stringify(scenario.settings));
            if (scenario.notification) {
                await page
                    .locator('.notification-toast', { hasText: scenario.notification })
                    .first()
                    .waitFor({ timeout: 20000 })
                    .catch(() => undefined); // recorded below as "no such notification"
            }
            if (scenario.squiggles !== undefined && scenario.squiggles !== null) {
                await page
                    .waitForFunction(
                        (want) => (document.querySelectorAll('.editor-instance .squiggly-error').length > 0) === want,
                        scenario.squiggles,
                        { timeout: 20000 },
                    )
                    .catch(() => undefined); // recorded below
            }
            await sleep(3000); // stacked notifications, or a late squiggle, would show up by now
            const toasts = page.locator('.notifications-toasts .notification-toast');
            result.scenarios.push({
                name: scenario.name,
                notifications: (await toasts.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
                squiggles: await page.locator('.editor-instance .squiggly-error').count(),
            });
            step(`scenario: ${scenario.name}`);
            for (const close of await page.locator('.notification-toast .codicon-notifications-clear').all()) {
                await close.click().catch(() => undefined);
            }
            await sleep(300);
        }
        if (config.completion) {
            // A new top-level key: after the first `{`, a new line and `"` (auto-closed to `""`).
            await page.locator('.editor-instance .view-line').first().click();
            await page.keyboard.press('Control+Home');
            await page.keyboard.press('End');
            await page.keyboard.press('Enter');
            await page.keyboard.type('"');
            await sleep(300);
            await page.keyboard.press('Control+Space');
            const rows = page.locator('.suggest-widget.visible .monaco-list-row');
            await rows.first().waitFor({ timeout: 15000 }).catch(() => undefined);
            await sleep(500);
            result.completions = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent));
            step('completion');
            await page.keyboard.press('Escape');
        }
        if (config.typeCompletion) {
            // Type in a string value, as a person does, and accept a suggestion with Enter.
            const spec = config.typeCompletion;
            const typed = { rows: [], focused: null, line: null };
            result.typedCompletion = typed;
            const box = await wordInLineBox(page, spec.line, spec.word);
            if (!box) {
                throw new Error(`no rendered line contains ${JSON.stringify(spec.line)}`);
            }
            // Just inside the right edge of the word: the caret lands after its last character.
            await page.mouse.click(box.x + box.width - 1, box.y + box.height / 2);
            await sleep(300);
            await page.keyboard.type(spec.type, { delay: 80 });
            const rows = page.locator('.suggest-widget.visible .monaco-list-row');
            await page
                .locator('.suggest-widget.visible .monaco-list-row', { hasText: spec.pick })
                .first()
                .waitFor({ timeout: 15000 })
                .catch(() => undefined); // recorded below
            await sleep(500);
            typed.rows = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent));
            const focused = page.locator('.suggest-widget.visible .monaco-list-row.focused').first();
            typed.focused = (await focused.count()) ? await focused.getAttribute('aria-label') : null;
            await page.keyboard.press('Enter');
            await sleep(800);
            typed.line = await page.evaluate((word) => {
                for (const line of document.querySelectorAll('.editor-instance .view-line')) {
                    const text = line.textContent.replace(/\u00a0/g, ' ');
                    if (text.includes(word)) {
                        return text;
                    }
                }
                return null;
            }, spec.anchor ?? spec.word);
            step('typed completion');
        }
        if (config.formatOnSave) {
            result.formatOnSave = {};
            for (const spec of config.formatOnSave) {
                const before = fs.readFileSync(spec.path, 'utf8');
                await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${spec.file}"]`).first().click();
                await page.waitForFunction((name) => {
                    const tab = document.querySelector('.tabs-container .tab.active');
                    return tab && (tab.getAttribute('aria-label') ?? '').startsWith(name);
                }, spec.file);
                await page.locator('.editor-instance .view-line').first().click();
                await page.keyboard.press('Control+Home');
                await page.keyboard.press('End');
                await page.keyboard.type(' ');
                await page.keyboard.press('Control+S');
                const deadline = Date.now() + timeout;
                while (Date.now() < deadline && fs.readFileSync(spec.path, 'utf8') === before) {
                    await sleep(200);
                }
                await sleep(300);
                result.formatOnSave[spec.file] = {
                    languageMode: (await page.locator('#status\\.editor\\.mode').innerText()).trim(),
                    text: fs.readFileSync(spec.path, 'utf8'),
                };
                step(`format on save ${spec.file}`);
            }
        }
        step('done');
    } catch (error) {
        result.error = String(error && error.stack ? error.stack : error);
    } finally {
        if (page && result.error) {
            try {
                fs.mkdirSync(path.dirname(config.screenshot), { recursive: true });
                await page.screenshot({ path: config.screenshot });
            } catch (error) {
                result.screenshotError = String(error);
            }
        }
        await browser.close();
        process.stdout.write(JSON.stringify(result) + '\n');
        process.exit(result.error ? 1 : 0);
    }
}

main().catch((error) => {
    result.error = String(error && error.stack ? error.stack : error);
    process.stdout.write(JSON.stringify(result) + '\n');
    process.exit(1);
});
