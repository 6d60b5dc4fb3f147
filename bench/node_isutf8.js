// Cross-check for the validate numbers: Node's require('buffer').isUtf8 calls simdutf.
//   node bench/node_isutf8.js DIR      (every *.txt one level below DIR, as the corpus directory)
// Prints GB/s per file (median of 3, CPU time, like utf8dfa_bench) and their geometric mean.
const { isUtf8 } = require('buffer');
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node node_isutf8.js DIR');
  process.exit(2);
}
const files = [];
for (const sub of fs.readdirSync(dir)) {
  const p = path.join(dir, sub);
  if (fs.statSync(p).isDirectory()) {
    for (const f of fs.readdirSync(p)) if (f.endsWith('.txt')) files.push(path.join(p, f));
  } else if (sub.endsWith('.txt')) {
    files.push(p);
  }
}
let logsum = 0;
for (const f of files.sort()) {
  const b = fs.readFileSync(f);
  if (!isUtf8(b)) throw new Error('not valid UTF-8: ' + f);
  const rates = [];
  for (let rep = 0; rep < 3; rep++) {
    const t0 = process.cpuUsage();
    for (let iters = 200; ; iters += 200) {
      for (let i = 0; i < 200; i++) isUtf8(b);
      const u = process.cpuUsage(t0);
      const seconds = (u.user + u.system) / 1e6;
      if (seconds > 0.05) {
        rates.push((b.length * iters) / seconds / 1e9);
        break;
      }
    }
  }
  rates.sort((x, y) => x - y);
  logsum += Math.log(rates[1]);
  console.log(path.relative(dir, f), rates[1].toFixed(2));
}
console.log(`geometric mean: ${Math.exp(logsum / files.length).toFixed(2)} GB/s over ${files.length} files (node ${process.version})`);
