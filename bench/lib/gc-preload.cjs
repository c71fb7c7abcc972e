// Loaded into the daemon by B-MEM only (`node --expose-gc --require …`): SIGUSR2 runs two full
// collections, so RSS read right after reflects live memory rather than where the GC happened to be.
process.on('SIGUSR2', () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
});
