// Runs a WebAssembly program built for wasm32-wasi under Node's WASI (preview1), as a cross build's
// emulator (cmake/toolchains/wasm32-wasi.cmake):
//   node tools/wasi_run.mjs PROGRAM.wasm [ARGS...]
// The program gets the arguments, the whole environment (UTF8DFA_KERNEL among it), stdin, stdout
// and stderr, and the host's files: the current directory for relative paths, and each folder at
// the root under its own name for absolute ones (the C library matches a path against the
// preopened folders' names with any leading / removed, so a preopened / would hide the current
// directory). A relative path whose first folder has the name of one at the root (usr/..., tmp/...)
// therefore resolves at the root. The runner exits with the program's exit status.
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';

const [program, ...args] = process.argv.slice(2);
if (program === undefined) {
  process.stderr.write('usage: node wasi_run.mjs PROGRAM.wasm [ARGS...]\n');
  process.exit(2);
}
const preopens = { '.': process.cwd() };
for (const name of readdirSync('/')) {
  try {
    if (statSync(`/${name}`).isDirectory()) preopens[`/${name}`] = `/${name}`;
  } catch {
    // a dangling link or a folder this user may not read: not offered
  }
}
const wasi = new WASI({ version: 'preview1', args: [program, ...args], env: process.env, preopens, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
