-- Headless Neovim 0.11 probe for tests/editors/test_neovim.py.
--
-- Run as `timeout 60 nvim --headless --clean -u nvim_probe.lua FILE`. It loads the user-facing
-- configuration from editors/neovim/ exactly as documented, lets Neovim start hcljson-ls for
-- FILE, collects what Neovim itself exposes (filetype, syntax, client config, capabilities,
-- diagnostics, hover, document symbols), stops the client, writes one JSON object to
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
