-- Neovim's built-in LSP client attached to `wopkit lsp`, headless: open a
-- pack.json, read the diagnostics, apply the "create the missing file" code
-- action, save, and wait for the diagnostic to clear. Writes what it saw to
-- $LSP_OUT, one line per fact; the Go test reads it.
local bin, dir, out = os.getenv('WOPKIT_BIN'), os.getenv('PACK_DIR'), os.getenv('LSP_OUT')
local log = {}
local function say(s) table.insert(log, s) end
local function finish()
  local f = io.open(out, 'w')
  f:write(table.concat(log, '\n') .. '\n')
  f:close()
  vim.cmd('qa!')
end
local ok, err = pcall(function()
  vim.cmd('edit ' .. dir .. '/pack.json')
  local buf = vim.api.nvim_get_current_buf()
  local cfg = { name = 'wopkit', cmd = { bin, 'lsp' }, root_dir = dir }
  local id
  if vim.lsp.start then
    id = vim.lsp.start(cfg)
  else
    id = vim.lsp.start_client(cfg)
    vim.lsp.buf_attach_client(buf, id)
  end
  local client = vim.lsp.get_client_by_id(id)
  say('attached ' .. tostring(client ~= nil))
  local function codes()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local lsp = d.user_data and d.user_data.lsp or {}
      out[lsp.code or d.code or ''] = d
    end
    return out
  end
  vim.wait(30000, function() return codes()['OW005'] ~= nil end, 50)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    say(string.format('diag %d:%d %s %s', d.lnum, d.col, tostring(lsp.code or d.code), tostring(d.source)))
  end
  local d = codes()['OW005']
  if not d then say('no OW005'); return end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = { d.user_data and d.user_data.lsp or {} } },
  }
  local resp = client.request_sync('textDocument/codeAction', params, 10000, buf)
  local applied = false
  for _, a in ipairs((resp and resp.result) or {}) do
    say('action ' .. a.title)
    if not applied and a.title:find('^Create ') then
      vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding or 'utf-16')
      applied = true
      say('applied ' .. a.title)
    end
  end
  vim.cmd('silent! wall')
  -- Save pack.json too: its didSave re-checks it against the files on disk.
  vim.api.nvim_set_current_buf(buf)
  vim.cmd('silent! write!')
  local cleared = vim.wait(30000, function() return codes()['OW005'] == nil end, 50)
  say('cleared ' .. tostring(cleared))
  client.stop()
  vim.wait(5000, function() return client.is_stopped() end, 50)
end)
if not ok then say('error ' .. tostring(err)) end
finish()
