// Checks the Julia package without a Julia runtime (none exists for Debian or on npm).
//
//   node julia_check.mjs <dir-or-file.jl>... [--ccalls out.json]
//
// 1. Every .jl file parses with tree-sitter-julia: no ERROR and no MISSING node.
// 2. Every `Mod.name` reference from the hand-written files into the generated raw layer
//    (`LibCTensor.x` or its alias `L.x`) names something LibCTensor.jl defines.
// 3. Every `ccall` site is extracted (function name, library, return type, argument types,
//    number of values passed) into out.json for check_ccalls.py, which compares them with
//    the header and with the symbols the library exports.  `@ccall` and ccalls through a
//    function pointer cannot be checked that way, so they are reported as failures.
// Exits 1 if a check fails; prints what it checked.

import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Parser, Language } from 'web-tree-sitter';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
let ccallsOut = null;
const roots = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--ccalls') ccallsOut = args[++i];
  else roots.push(args[i]);
}
if (roots.length === 0) {
  console.error('usage: node julia_check.mjs <dir-or-file.jl>... [--ccalls out.json]');
  process.exit(2);
}

function jlFiles(p) {
  if (statSync(p).isDirectory()) {
    return readdirSync(p).sort().flatMap((e) => (e === 'node_modules' ? [] : jlFiles(path.join(p, e))));
  }
  return p.endsWith('.jl') ? [p] : [];
}
const files = roots.flatMap(jlFiles);

await Parser.init();
const wasm = path.join(path.dirname(require.resolve('tree-sitter-julia/package.json')), 'tree-sitter-julia.wasm');
const parser = new Parser();
parser.setLanguage(await Language.load(wasm));

let failures = 0;
const fail = (msg) => { failures++; console.log('  FAIL ' + msg); };

function* walk(node) {
  yield node;
  for (let i = 0; i < node.childCount; i++) yield* walk(node.child(i));
}
const squash = (s) => s.replace(/\s+/g, '');
const where = (file, node) => `${file}:${node.startPosition.row + 1}:${node.startPosition.column + 1}`;

// ---- 1. parse ------------------------------------------------------------------------------
const trees = new Map();
for (const file of files) {
  const src = readFileSync(file, 'utf8');
  const tree = parser.parse(src);
  trees.set(file, tree);
  let bad = 0;
  for (const n of walk(tree.rootNode)) {
    if (n.type === 'ERROR' || n.isMissing) {
      bad++;
      if (bad <= 5) {
        const line = src.split('\n')[n.startPosition.row];
        fail(`${where(file, n)}: ${n.isMissing ? 'missing ' + n.type : 'syntax error'}: ${line.trim()}`);
      }
    }
  }
  if (bad === 0) console.log(`  ok   parses: ${file}`);
}

// ---- 2. references into the raw layer ------------------------------------------------------
const rawFile = files.find((f) => path.basename(f) === 'LibCTensor.jl');
const defined = new Set();
if (rawFile) {
  for (const n of walk(trees.get(rawFile).rootNode)) {
    if (n.type === 'function_definition') {
      const sig = n.namedChildren.find((c) => c.type === 'signature');
      const call = sig && sig.namedChildren.find((c) => c.type === 'call_expression');
      if (call) defined.add(call.namedChild(0).text);
    } else if (n.type === 'const_statement') {
      const asg = n.namedChildren.find((c) => c.type === 'assignment');
      if (asg) defined.add(asg.namedChild(0).text);
    } else if (n.type === 'assignment' && n.parent && n.parent.type === 'module_definition') {
      const lhs = n.namedChild(0);
      if (lhs.type === 'call_expression') defined.add(lhs.namedChild(0).text);
    }
  }
  let refs = 0;
  const aliases = new Set(['LibCTensor', 'L']);
  for (const [file, tree] of trees) {
    if (file === rawFile) continue;
    for (const n of walk(tree.rootNode)) {
      if (n.type !== 'field_expression') continue;
      const value = n.namedChild(0);
      const field = n.namedChild(n.namedChildCount - 1);
      if (!value || !field || !aliases.has(value.text) || field.type !== 'identifier') continue;
      refs++;
      if (!defined.has(field.text)) fail(`${where(file, n)}: ${n.text}: LibCTensor.jl defines no ${field.text}`);
    }
  }
  console.log(`  ok   ${refs} references to LibCTensor checked against its ${defined.size} definitions`);
}

// ---- 3. ccall sites ------------------------------------------------------------------------
const ccalls = [];
for (const [file, tree] of trees) {
  for (const n of walk(tree.rootNode)) {
    if (n.type === 'macrocall_expression' && /^@ccall\b/.test(n.text)) {
      fail(`${where(file, n)}: @ccall cannot be checked against the header: use ccall((:name, libctensor()), ...)`);
      continue;
    }
    if (n.type !== 'call_expression' || n.namedChild(0)?.text !== 'ccall') continue;
    const argl = n.namedChildren.find((c) => c.type === 'argument_list');
    const a = argl ? argl.namedChildren.filter((c) => c.type !== 'comment') : [];
    const site = { file, line: n.startPosition.row + 1, text: n.text.replace(/\s+/g, ' ') };
    const spec = a[0];
    if (!spec || spec.type !== 'tuple_expression' || spec.namedChildCount !== 2 ||
        spec.namedChild(0).type !== 'quote_expression') {
      fail(`${where(file, n)}: ccall without a (:name, library) tuple cannot be checked: ${site.text.slice(0, 80)}`);
      continue;
    }
    site.name = spec.namedChild(0).text.replace(/^:/, '');
    site.library = spec.namedChild(1).text;
    site.ret = squash(a[1].text);
    const types = a[2];
    if (!types || types.type !== 'tuple_expression' && !(types.type === 'parenthesized_expression' && types.namedChildCount === 0) && types.text !== '()') {
      fail(`${where(file, n)}: argument types of ${site.name} are not a literal tuple`);
      continue;
    }
    site.argtypes = types.namedChildren.filter((c) => c.type !== 'comment').map((c) => squash(c.text));
    site.nvalues = a.length - 3;
    ccalls.push(site);
  }
}
console.log(`  ok   ${ccalls.length} ccall sites extracted` + (ccallsOut ? ` to ${ccallsOut}` : ''));
if (ccallsOut) writeFileSync(ccallsOut, JSON.stringify(ccalls, null, 1));

console.log(`julia parse: ${files.length} files, ${failures} failures`);
process.exit(failures ? 1 : 0);
