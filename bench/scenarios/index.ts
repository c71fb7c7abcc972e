import type { Scenario } from '../lib/scenario.js';
import { bFan } from './b-fan.js';
import { bLat } from './b-lat.js';
import { bStart } from './b-start.js';

/** Every scenario, in the order `npm run bench` runs them (cheap first). */
export const SCENARIOS: readonly Scenario[] = [bStart, bFan, bLat];
