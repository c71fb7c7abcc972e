/** Entry point of the simulator executable: `node --import tsx src/simulator/main.ts [flags]`. */
import { runSimulatorCli } from './index.js';

await runSimulatorCli(process.argv.slice(2));
// Background timers (tasks, workflow runs, the provider poll) must not keep a closed simulator alive.
process.exit(0);
