// The gram extension's client: starts `gramkit lsp` (the command of the `gram.server.command`
// setting, from the workspace folder, so the project's own gramkit answers) and connects it to
// the .gram documents. Bundled with vscode-languageclient into extension.js by package.mjs.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

exports.activate = async (context) => {
  const [command, ...args] = vscode.workspace.getConfiguration('gram').get('server.command') ?? ['npx', '--no-install', 'gramkit', 'lsp'];
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const server = { command, args, transport: TransportKind.stdio, options: { cwd, shell: process.platform === 'win32' } };
  client = new LanguageClient('gram', 'gramkit language server', server, { documentSelector: [{ language: 'gram' }] });
  context.subscriptions.push(client);
  await client.start();
};

exports.deactivate = () => client?.stop();
