// Loaded into the daemon by B-MEM, B-SCALE and B-LONG only (`node --expose-gc --require …`): SIGUSR2
// runs two full collections, so RSS read right after reflects live memory rather than where the GC
// happened to be. The memory right after is written to <ZCODE_DATA_BASE_DIR>/gc-report.json (the
// bench's temp root for this daemon), written whole through a rename so a reader never sees half.
const fs = require('node:fs');
const path = require('node:path');
process.on('SIGUSR2', () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
  const root = process.env.ZCODE_DATA_BASE_DIR;
  if (!root) return;
  const file = path.join(root, 'gc-report.json');
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
  fs.renameSync(`${file}.tmp`, file);
});
