/**
 * V8 flags every launcher gives the daemon's node process: `npm start`, the `zcode-hub` shebang,
 * the service units, the editor bridge's auto-start, the Docker image and the benchmarks
 * (test/meta/node-flags.test.ts checks each of them). A 2 MiB semi-space keeps the young
 * generation small: with V8's default, the pages a burst of connects touches stay resident,
 * which is most of what B-MEM counted per idle client (100–130 KiB; 63–74 KiB with this flag).
 * The price is more scavenges: at load L the garbage collector goes from ~3 % to ~12 % of busy
 * time (busy 17.7–19 % → 19.8–21 % of a core), while B-LAT and B-FAN did not move and the RSS
 * with a stalled client fell 151 → 128 MiB (BENCHMARKS.md). 4 and 8 MiB saved little. V8 reads
 * the flag at startup only, so it cannot be set from inside the process.
 */
export const DAEMON_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
