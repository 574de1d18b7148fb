-- Headless Neovim 0.11 probe for tests/editors/test_neovim.py.
--
-- Run as `timeout 60 nvim --headless --clean -u nvim_probe.lua FILE`. It loads the user-facing
-- configuration from editors/neovim/ exactly as documented, lets Neovim start hcljson-ls for
-- FILE, collects what Neovim itself exposes (filetype, syntax, client config, capabilities,
-- diagnostics, hover, document symbols; optionally go-to-definition and rename across the files
-- of the module), stops the client, writes one JSON object to
-- $HCLJSON_PROBE_OUT and quits (exit 0 on success, 2 on a Lua error, 3 on the timeout guard).
--
-- Environment:
--   HCLJSON_REPO          repository root (editors/neovim/ lives there)
--   HCLJSON_NVIM_MODE     'snippet'     : dofile(editors/neovim/init-snippet.lua), as pasted into init.lua
--                         'runtimepath' : editors/neovim on 'runtimepath' + vim.lsp.enable('hcljson_ls')
--   HCLJSON_PROBE_OUT     path of the JSON result
--   HCLJSON_ENCODING      optional: offer only this position encoding (utf-8/utf-16/utf-32)
--   HCLJSON_HOVER_AT      optional 'line,col' (0-based line, 0-based byte column) for textDocument/hover
--   HCLJSON_SYNTAX_AT     optional 'line,col' (same) where the syntax group is read
--   HCLJSON_FT_NAMES      optional ','-separated file names to run vim.filetype.match on
--   HCLJSON_EXTRA_LUA     optional Lua file run after the configuration (a further documented snippet)
--   HCLJSON_WAIT_HREF     optional '1': also wait until every diagnostic has a codeDescription link
--   HCLJSON_NAV_AT        optional 'line,col' (same) of a reference: the probe then records the raw
--                         definition/declaration/prepareRename/rename answers there, jumps with
--                         vim.lsp.buf.definition(), wipes the buffer it jumped to (so the server reads that
--                         file from disk again), renames with vim.lsp.buf.rename($HCLJSON_RENAME_TO) and
--                         writes every buffer (:wall)
--   HCLJSON_RENAME_TO     the new name for HCLJSON_NAV_AT
--   HCLJSON_NAV_FILES     ','-separated file names (in the current directory) the rename is expected to
--                         edit; their buffers' text is recorded after the rename
--   HCLJSON_COMPLETE_AT   optional ';'-separated 'line,col' (same): at each, the probe asks
--                         textDocument/completion with vim.lsp.buf_request_sync and records the labels and
--                         textEdits; then it applies the textEdit of HCLJSON_COMPLETE_PICK there with
--                         vim.lsp.util.apply_text_edits, records the line, and puts the line back
--   HCLJSON_COMPLETE_PICK the label of the item to apply at each HCLJSON_COMPLETE_AT
--   HCLJSON_FIX_AT        optional ';'-separated 'line,col' (same): at each, in order, the probe waits for a
--                         diagnostic on that line, puts the cursor there and types `gra` (Neovim's default
--                         mapping of vim.lsp.buf.code_action()); its menu (vim.ui.select, replaced here as a
--                         picker plugin replaces it) picks the only preferred quick fix, which Neovim then
--                         applies. Recorded: the codeAction request Neovim sent (range, context.diagnostics),
--                         the menu, the line after; at the end, once those lines have no diagnostic left (or
--                         the wait ends), the buffer's text and diagnostics
--   HCLJSON_FORMAT        optional '1': format the buffer with vim.lsp.buf.format() (synchronous), record
--                         its lines, format again and record whether that changed the buffer;
--                         'write': write the buffer with :write and record the file's lines on disk
--   HCLJSON_LENS          optional '1': enable inlay hints (vim.lsp.inlay_hint) and record what Neovim
--                         holds, ask textDocument/documentLink, refresh code lenses (vim.lsp.codelens)
--                         and record their titles once Neovim has resolved them
--   HCLJSON_VALIDATE      optional: keys to type in normal mode (a documented mapping of
--                         `hcljson.validate`, e.g. '<leader>tv'); the probe types them and records the
--                         buffer's diagnostics of source 'terraform validate' once Neovim has them
--   HCLJSON_WAIT_MS       how long to wait for the client and for diagnostics (default 20000)
--   HCLJSON_BUDGET_MS     timeout guard for the whole probe (default 45000)

local env = vim.env
local out_path = assert(env.HCLJSON_PROBE_OUT, 'HCLJSON_PROBE_OUT is not set')
local wait_ms = tonumber(env.HCLJSON_WAIT_MS) or 20000
local budget_ms = tonumber(env.HCLJSON_BUDGET_MS) or 45000
local result = { steps = {} }
local finished = false

local function step(name)
  table.insert(result.steps, name)
end

local function finish(code)
  if finished then
    return
  end
  finished = true
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
  if code == 0 then
    vim.cmd('qall!')
  else
    vim.cmd('cquit ' .. code)
  end
end

local function fail(err)
  result.error = tostring(err)
  finish(2)
end

local function parse_at(value)
  if not value or value == '' then
    return nil
  end
  local line, col = value:match('^(%d+),(%d+)$')
  return { tonumber(line), tonumber(col) }
end

-- Configuration, done at init time like a user's init.lua would.
local ok_setup, setup_err = pcall(function()
  local root = assert(env.HCLJSON_REPO, 'HCLJSON_REPO is not set')
  local dir = root .. '/editors/neovim'
  result.mode = env.HCLJSON_NVIM_MODE
  if env.HCLJSON_NVIM_MODE == 'snippet' then
    dofile(dir .. '/init-snippet.lua')
  elseif env.HCLJSON_NVIM_MODE == 'runtimepath' then
    vim.opt.runtimepath:prepend(dir)
    vim.lsp.enable('hcljson_ls')
  else
    error('unknown HCLJSON_NVIM_MODE: ' .. tostring(env.HCLJSON_NVIM_MODE))
  end
  if env.HCLJSON_EXTRA_LUA and env.HCLJSON_EXTRA_LUA ~= '' then
    dofile(env.HCLJSON_EXTRA_LUA)
  end
  if env.HCLJSON_ENCODING and env.HCLJSON_ENCODING ~= '' then
    -- Test-only: narrow the encodings the client offers, to exercise the server's conversions.
    vim.lsp.config('hcljson_ls', {
      capabilities = { general = { positionEncodings = { env.HCLJSON_ENCODING } } },
    })
  end
  -- Test-only: notice a server that exits early instead of waiting for the full timeout.
  vim.lsp.config('hcljson_ls', {
    on_exit = function(code, signal)
      result.server_exit = { code = code, signal = signal }
    end,
  })
  step('configured')
end)
if not ok_setup then
  result.error = 'setup: ' .. tostring(setup_err)
end

vim.defer_fn(function()
  result.error = (result.error and (result.error .. '; ') or '') .. 'timeout guard fired'
  finish(3)
end, budget_ms)

local function syntax_name(buf, at)
  if not at then
    return nil
  end
  return vim.api.nvim_buf_call(buf, function()
    return vim.fn.synIDattr(vim.fn.synID(at[1] + 1, at[2] + 1, 1), 'name')
  end)
end

-- Diagnostics answers seen per URI (pushed with publishDiagnostics, or pulled with textDocument/diagnostic:
-- Neovim 0.11 pulls when the server offers it, after each didOpen/didChange of the buffer), so a step can
-- wait for the server's answer to an edit.
local diagnostic_answers = {}
local function count_answers(method, uri_of)
  local handler = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, res, ctx, config)
    local uri = uri_of(res, ctx)
    if uri then
      diagnostic_answers[uri] = (diagnostic_answers[uri] or 0) + 1
    end
    return handler(err, res, ctx, config)
  end
end
count_answers('textDocument/publishDiagnostics', function(params)
  return params and params.uri
end)
count_answers('textDocument/diagnostic', function(_, ctx)
  return ctx and ctx.params and ctx.params.textDocument and ctx.params.textDocument.uri
end)

-- Messages Neovim shows the user (e.g. "Nothing to rename", a rename error), kept for the report.
local notifications = {}
local notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(notifications, { message = tostring(msg), level = level or vim.NIL })
  return notify(msg, level, opts)
end

local function basename(b)
  return vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':t')
end

local function loaded_buffers()
  local names = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      table.insert(names, basename(b))
    end
  end
  table.sort(names)
  return names
end

-- The loaded buffer of the file `name` in the current directory, or nil.
local function loaded_buffer(name)
  local path = vim.fs.normalize(vim.fn.fnamemodify(name, ':p'))
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.fs.normalize(vim.api.nvim_buf_get_name(b)) == path then
      return b
    end
  end
  return nil
end

local function buffer_text(b)
  local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
  if vim.bo[b].eol then
    text = text .. '\n'
  end
  return text
end

local function diagnostics_of(b)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(b)) do
    table.insert(out, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      code = d.code or vim.NIL,
      message = d.message,
    })
  end
  return out
end

-- Waits until `uri` got a diagnostics answer after the `before`th and then none for `quiet_ms`.
local function wait_diagnostics_settled(uri, before, quiet_ms)
  local last, quiet_since = diagnostic_answers[uri] or 0, vim.uv.now()
  return vim.wait(wait_ms, function()
    local n = diagnostic_answers[uri] or 0
    if n ~= last then
      last, quiet_since = n, vim.uv.now()
    end
    return n > before and vim.uv.now() - quiet_since >= quiet_ms
  end, 20)
end

-- Go to definition and rename from the reference at HCLJSON_NAV_AT, as a user does in Neovim.
local function navigate(client, buf)
  local at = parse_at(env.HCLJSON_NAV_AT)
  local new_name = assert(env.HCLJSON_RENAME_TO, 'HCLJSON_RENAME_TO is not set')
  local nav = { loaded_before = loaded_buffers() }
  result.navigation = nav
  local uri = vim.uri_from_bufnr(buf)
  local function place_cursor()
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { at[1] + 1, at[2] })
  end
  local function request(method, extra)
    place_cursor()
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    for k, v in pairs(extra or {}) do
      params[k] = v
    end
    local resp, err = client:request_sync(method, params, wait_ms, buf)
    return {
      position = params.position,
      error = (err or (resp and resp.err)) and vim.inspect(err or resp.err) or vim.NIL,
      result = resp and resp.result or vim.NIL,
    }
  end
  nav.diagnostics_before = diagnostics_of(buf)

  -- The servers' answers, as they come over the wire (nothing is applied yet).
  nav.definition = request('textDocument/definition')
  nav.declaration = request('textDocument/declaration')
  nav.prepare_rename = request('textDocument/prepareRename')
  nav.rename = request('textDocument/rename', { newName = new_name })
  step('navigation requests')

  -- (a) `gd`-style: vim.lsp.buf.definition() with one location jumps there in the current window.
  place_cursor()
  vim.lsp.buf.definition()
  local jumped = vim.wait(wait_ms, function()
    return vim.api.nvim_get_current_buf() ~= buf
  end, 20)
  local target = vim.api.nvim_get_current_buf()
  local cursor = vim.api.nvim_win_get_cursor(0)
  nav.jump = {
    jumped = jumped,
    buffer = basename(target),
    path = vim.api.nvim_buf_get_name(target),
    line = cursor[1] - 1, -- 0-based
    col = cursor[2], -- 0-based byte column
    line_text = vim.api.nvim_get_current_line(),
    filetype = vim.bo[target].filetype,
    attached = vim.wait(wait_ms, function()
      return vim.lsp.buf_is_attached(target, client.id)
    end, 20),
  }
  step('definition')

  -- Back to the reference; wipe the declaration's buffer (didClose), so that the rename finds that file
  -- closed again and the server has to read it from disk.
  place_cursor()
  if target ~= buf then
    vim.api.nvim_buf_delete(target, { force = true })
  end
  nav.loaded_before_rename = loaded_buffers()

  -- (b) vim.lsp.buf.rename(NEW): prepareRename, rename, then Neovim applies the WorkspaceEdit, loading
  -- the files that are not open into buffers.
  local files = vim.split(env.HCLJSON_NAV_FILES or '', ',', { trimempty = true })
  local answered = diagnostic_answers[uri] or 0
  place_cursor()
  vim.lsp.buf.rename(new_name)
  nav.renamed = vim.wait(wait_ms, function()
    for _, name in ipairs(files) do
      local b = loaded_buffer(name)
      if not b or not vim.bo[b].modified then
        return false
      end
    end
    return true
  end, 20)
  nav.files = {}
  for _, name in ipairs(files) do
    local b = loaded_buffer(name)
    if b then
      local text = buffer_text(b)
      local decoded, decode_err = pcall(vim.json.decode, text)
      nav.files[name] = {
        text = text,
        modified = vim.bo[b].modified,
        json_ok = decoded,
        json_error = (not decoded) and tostring(decode_err) or vim.NIL,
        filetype = vim.bo[b].filetype,
        attached = vim.wait(wait_ms, function()
          return vim.lsp.buf_is_attached(b, client.id)
        end, 20),
      }
    end
  end
  step('rename')
  -- The server's diagnostics for the reference's file once it has seen the edits of both files.
  nav.diagnostics_settled = wait_diagnostics_settled(uri, answered, 700)
  nav.diagnostics_after = diagnostics_of(buf)
  -- What a user does next: write every changed buffer.
  nav.write_error = vim.NIL
  local wrote, write_err = pcall(vim.cmd, 'wall')
  if not wrote then
    nav.write_error = tostring(write_err)
  end
  nav.notifications = notifications
  step('wall')
end

-- Completion at each HCLJSON_COMPLETE_AT, as `vim.lsp.buf_request_sync` answers it, and the buffer line
-- once Neovim applied the textEdit of the item HCLJSON_COMPLETE_PICK (the line is put back afterwards).
local function complete(client, buf)
  result.completion = {}
  for spec in env.HCLJSON_COMPLETE_AT:gmatch('[^;]+') do
    local at = parse_at(spec)
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { at[1] + 1, at[2] })
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    local responses, err = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, wait_ms)
    local answer = responses and responses[client.id] or nil
    local res = answer and answer.result or nil
    local items = (type(res) == 'table' and (res.items or res)) or {}
    local entry = {
      position = params.position,
      error = (err or (answer and answer.err)) and vim.inspect(err or answer.err) or vim.NIL,
      answered = res ~= nil,
      labels = {},
      items = {},
    }
    for _, item in ipairs(items) do
      table.insert(entry.labels, item.label)
      table.insert(entry.items, {
        label = item.label,
        textEdit = item.textEdit and vim.deepcopy(item.textEdit) or vim.NIL, -- apply_text_edits marks the one it applies
        insertTextFormat = item.insertTextFormat or vim.NIL,
      })
    end
    local pick = env.HCLJSON_COMPLETE_PICK
    for _, item in ipairs(items) do
      if item.label == pick and item.textEdit then
        local before = vim.api.nvim_buf_get_lines(buf, at[1], at[1] + 1, false)[1]
        vim.lsp.util.apply_text_edits({ item.textEdit }, buf, client.offset_encoding)
        entry.line_after = vim.api.nvim_buf_get_lines(buf, at[1], at[1] + 1, false)[1]
        vim.api.nvim_buf_set_lines(buf, at[1], at[1] + 1, false, { before })
      end
    end
    table.insert(result.completion, entry)
  end
  step('completion')
end

-- Quick fixes at each HCLJSON_FIX_AT, asked for and applied as a user does (`gra`, then the menu).
local function quick_fix(client, buf)
  local started = vim.uv.hrtime()
  local out = { attempts = {} }
  result.quick_fix = out
  local current -- the attempt being recorded
  -- Observe (not change) the request vim.lsp.buf.code_action() sends and the answer it gets.
  local request = client.request
  client.request = function(self, method, params, handler, bufnr)
    if method == 'textDocument/codeAction' and current then
      current.range = vim.deepcopy(params.range)
      current.sent = vim.tbl_map(function(d)
        return { range = d.range, code = d.code or vim.NIL, source = d.source or vim.NIL }
      end, params.context and params.context.diagnostics or {})
    end
    return request(self, method, params, handler, bufnr)
  end
  -- The menu: a picker that takes the only preferred quick fix (none when there is not exactly one).
  local select = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    local preferred = {}
    current.menu = {}
    for _, item in ipairs(items) do
      local a = item.action
      table.insert(current.menu, { title = a.title, kind = a.kind or vim.NIL, preferred = a.isPreferred or false })
      if a.kind == 'quickfix' and a.isPreferred then
        table.insert(preferred, item)
      end
    end
    local choice = #preferred == 1 and preferred[1] or nil
    current.picked = choice and choice.action.title or vim.NIL
    on_choice(choice)
  end
  local lines = {}
  for spec in env.HCLJSON_FIX_AT:gmatch('[^;]+') do
    local at = parse_at(spec)
    table.insert(lines, at[1])
    current = { cursor = at, menu = vim.NIL, picked = vim.NIL, range = vim.NIL, sent = vim.NIL }
    table.insert(out.attempts, current)
    current.diagnosed = vim.wait(wait_ms, function()
      return #vim.diagnostic.get(buf, { lnum = at[1] }) > 0
    end, 20)
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { at[1] + 1, at[2] })
    local tick, told = vim.api.nvim_buf_get_changedtick(buf), #notifications
    vim.api.nvim_feedkeys('gra', 'mx', false)
    -- Until the edit is applied, the menu had no quick fix to pick, or Neovim said why not (e.g. "No
    -- code actions available").
    vim.wait(wait_ms, function()
      return vim.api.nvim_buf_get_changedtick(buf) ~= tick
        or (current.menu ~= vim.NIL and current.picked == vim.NIL)
        or #notifications > told
    end, 20)
    current.changed = vim.api.nvim_buf_get_changedtick(buf) ~= tick
    current.notifications = vim.list_slice(notifications, told + 1)
    current.line = vim.api.nvim_buf_get_lines(buf, at[1], at[1] + 1, false)[1]
  end
  client.request, vim.ui.select = request, select
  out.cleared = vim.wait(wait_ms, function()
    for _, lnum in ipairs(lines) do
      if #vim.diagnostic.get(buf, { lnum = lnum }) > 0 then
        return false
      end
    end
    return true
  end, 20)
  out.text = buffer_text(buf)
  out.diagnostics = diagnostics_of(buf)
  out.elapsed_ms = (vim.uv.hrtime() - started) / 1e6
  step('quick_fix')
end

-- Inlay hints and code lenses as Neovim's own modules hold them, document links as the server answers.
local function lens(client, buf)
  local out = {}
  vim.lsp.inlay_hint.enable(true, { bufnr = buf })
  local hints = {}
  vim.wait(wait_ms, function()
    hints = vim.lsp.inlay_hint.get({ bufnr = buf })
    return #hints > 0
  end, 50)
  out.inlay_hints = {}
  for _, h in ipairs(hints) do
    local label = h.inlay_hint.label
    if type(label) == 'table' then
      label = table.concat(vim.tbl_map(function(part) return part.value end, label))
    end
    table.insert(out.inlay_hints, { h.inlay_hint.position.line, h.inlay_hint.position.character, label })
  end
  local params = { textDocument = vim.lsp.util.make_text_document_params(buf) }
  local responses, err = vim.lsp.buf_request_sync(buf, 'textDocument/documentLink', params, wait_ms)
  local answer = responses and responses[client.id] or nil
  out.links = answer and answer.result or vim.NIL
  out.links_error = (err or (answer and answer.err)) and vim.inspect(err or answer.err) or vim.NIL
  vim.lsp.codelens.refresh({ bufnr = buf })
  local titled = {}
  vim.wait(wait_ms, function()
    local all = vim.lsp.codelens.get(buf)
    titled = {}
    for _, l in ipairs(all) do
      if l.command and l.command.title ~= '' then
        table.insert(titled, { l.range.start.line, l.command.title, l.command.command })
      end
    end
    return #all > 0 and #titled == #all
  end, 50)
  out.code_lenses = titled
  -- "Click" the first lens as a user would (the documented mapping of its command, when loaded).
  if env.HCLJSON_EXTRA_LUA and env.HCLJSON_EXTRA_LUA ~= '' and #titled > 0 then
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { titled[1][1] + 1, 0 })
    local ran, run_err = pcall(vim.lsp.codelens.run)
    out.run_error = ran and vim.NIL or tostring(run_err)
    vim.wait(wait_ms, function()
      return #vim.fn.getqflist() > 0
    end, 50)
    out.quickfix = vim.tbl_map(function(item)
      return { item.lnum, item.col, vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ':t') }
    end, vim.fn.getqflist())
    out.quickfix_title = vim.fn.getqflist({ title = 1 }).title
  end
  result.lens = out
  step('lens')
end

-- `vim.lsp.buf.format()` as a user runs it (the buffer's 'shiftwidth'/'expandtab' become the options),
-- twice: the second run must leave the buffer alone.
local function format(client, buf)
  local f = {}
  local ok_format, format_err = pcall(vim.lsp.buf.format, { bufnr = buf, async = false, timeout_ms = wait_ms, id = client.id })
  f.error = ok_format and vim.NIL or tostring(format_err)
  f.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  pcall(vim.lsp.buf.format, { bufnr = buf, async = false, timeout_ms = wait_ms, id = client.id })
  f.changed_again = vim.api.nvim_buf_get_changedtick(buf) ~= tick
  result.format = f
  step('format')
end

-- The documented mapping of `hcljson.validate`, typed as a user types it; then the tool's findings as
-- `vim.diagnostic.get()` holds them (0-based line, byte column).
local function validate(buf)
  local out = { desc = vim.fn.maparg(env.HCLJSON_VALIDATE, 'n', false, true).desc or vim.NIL }
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_feedkeys(vim.keycode(env.HCLJSON_VALIDATE), 'mx', false)
  local found = {}
  vim.wait(wait_ms, function()
    found = vim.tbl_filter(function(d)
      return d.source == 'terraform validate'
    end, vim.diagnostic.get(buf))
    return #found > 0
  end, 50)
  out.diagnostics = vim.tbl_map(function(d)
    return { d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message }
  end, found)
  result.validate = out
  step('validate')
end

local function collect()
  if not ok_setup then
    error(result.error)
  end
  local buf = vim.api.nvim_get_current_buf()
  result.buffer = {
    name = vim.api.nvim_buf_get_name(buf),
    filetype = vim.bo[buf].filetype,
    syntax = vim.bo[buf].syntax,
    current_syntax = vim.b[buf].current_syntax or vim.NIL,
    commentstring = vim.bo[buf].commentstring,
  }
  result.filetype_matches = {}
  for name in (env.HCLJSON_FT_NAMES or ''):gmatch('[^,]+') do
    result.filetype_matches[name] = vim.filetype.match({ filename = name }) or vim.NIL
  end
  local resolved = vim.lsp.config.hcljson_ls or {}
  result.resolved_config = {
    cmd = resolved.cmd,
    filetypes = resolved.filetypes,
    root_markers = resolved.root_markers,
  }
  step('buffer')

  local client
  vim.wait(wait_ms, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'hcljson_ls' })[1]
    return client ~= nil or result.server_exit ~= nil
  end, 20)
  if not client then
    error(
      'no hcljson_ls client attached to the buffer (is hcljson-ls on PATH?); server exit: '
        .. vim.inspect(result.server_exit)
    )
  end
  step('attached')
  local caps = client.server_capabilities or {}
  result.client = {
    cmd = client.config.cmd,
    root_dir = client.root_dir or vim.NIL,
    offset_encoding = client.offset_encoding,
    server_name = client.server_info and client.server_info.name or vim.NIL,
    server_version = client.server_info and client.server_info.version or vim.NIL,
  }
  result.capabilities = {
    positionEncoding = caps.positionEncoding or vim.NIL,
    hoverProvider = caps.hoverProvider and true or false,
    documentSymbolProvider = caps.documentSymbolProvider and true or false,
    completionProvider = caps.completionProvider and true or false,
    documentFormattingProvider = caps.documentFormattingProvider and true or false,
  }

  local function href(d)
    local lsp = d.user_data and d.user_data.lsp
    return lsp and lsp.codeDescription and lsp.codeDescription.href or nil
  end
  vim.wait(wait_ms, function()
    local diagnostics = vim.diagnostic.get(buf)
    if #diagnostics == 0 then
      return false
    end
    if env.HCLJSON_WAIT_HREF == '1' then
      for _, d in ipairs(diagnostics) do
        if not href(d) then
          return false
        end
      end
    end
    return true
  end, 20)
  -- Let a possible second publish (e.g. semantic checks after syntax) arrive.
  vim.wait(300)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      code = d.code or vim.NIL,
      source = d.source or vim.NIL,
      href = href(d) or vim.NIL,
    })
  end
  step('diagnostics')

  -- Syntax is read after the waits so scheduled FileType work (the snippet's) has run.
  result.buffer.syntax = vim.bo[buf].syntax
  result.buffer.current_syntax = vim.b[buf].current_syntax or vim.NIL
  result.buffer.syntax_group = syntax_name(buf, parse_at(env.HCLJSON_SYNTAX_AT)) or vim.NIL

  local hover_at = parse_at(env.HCLJSON_HOVER_AT)
  if hover_at and result.capabilities.hoverProvider then
    vim.api.nvim_win_set_cursor(0, { hover_at[1] + 1, hover_at[2] })
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    local resp, err = client:request_sync('textDocument/hover', params, wait_ms, buf)
    result.hover = {
      position = params.position,
      error = (err or (resp and resp.err)) and vim.inspect(err or resp.err) or vim.NIL,
      result = resp and resp.result or vim.NIL,
    }
    step('hover')
  end

  if result.capabilities.documentSymbolProvider then
    local params = { textDocument = vim.lsp.util.make_text_document_params(buf) }
    local resp, err = client:request_sync('textDocument/documentSymbol', params, wait_ms, buf)
    local symbols = resp and resp.result or nil
    local items = vim.NIL
    if type(symbols) == 'table' then
      -- What `:lua vim.lsp.buf.document_symbol()` puts in the location list (1-based, byte columns).
      items = vim.lsp.util.symbols_to_items(symbols, buf, client.offset_encoding)
      for _, item in ipairs(items) do
        item.filename = nil
      end
    end
    result.document_symbols = {
      error = (err or (resp and resp.err)) and vim.inspect(err or resp.err) or vim.NIL,
      result = symbols or vim.NIL,
      items = items,
    }
    step('document_symbols')
  end

  if env.HCLJSON_COMPLETE_AT and env.HCLJSON_COMPLETE_AT ~= '' then
    complete(client, buf)
  end

  if env.HCLJSON_FIX_AT and env.HCLJSON_FIX_AT ~= '' then
    quick_fix(client, buf)
  end

  if env.HCLJSON_LENS == '1' then
    lens(client, buf)
  end

  if env.HCLJSON_FORMAT == '1' then
    format(client, buf)
  end
  if env.HCLJSON_FORMAT == 'write' then
    local wrote, write_err = pcall(vim.cmd, 'write')
    result.format = {
      error = wrote and vim.NIL or tostring(write_err),
      lines = vim.fn.readfile(vim.api.nvim_buf_get_name(buf)),
    }
    step('write')
  end

  if env.HCLJSON_VALIDATE and env.HCLJSON_VALIDATE ~= '' then
    validate(buf)
  end

  if parse_at(env.HCLJSON_NAV_AT) then
    navigate(client, buf)
  end

  client:stop()
  result.stopped = vim.wait(5000, function()
    return client:is_stopped()
  end, 20)
  step('stopped')
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(collect, debug.traceback)
      if ok then
        finish(0)
      else
        fail(err)
      end
    end)
  end,
})
