import type { Scenario } from '../lib/scenario.js';
import { bCeil } from './b-ceil.js';
import { bCost } from './b-cost.js';
import { bCostTeam } from './b-cost-team.js';
import { bDeflate } from './b-deflate.js';
import { bFan } from './b-fan.js';
import { bLat } from './b-lat.js';
import { bLong } from './b-long.js';
import { bMem } from './b-mem.js';
import { bPhone } from './b-phone.js';
import { bRec } from './b-rec.js';
import { bReplay } from './b-replay.js';
import { bScale } from './b-scale.js';
import { bSlow } from './b-slow.js';
import { bStart } from './b-start.js';
import { profileLoadL } from './profile.js';

/** Every scenario, in the order `npm run bench` runs them (cheap first). */
export const SCENARIOS: readonly Scenario[] = [
  bStart,
  bMem,
  bReplay,
  bRec,
  bFan,
  bLat,
  bSlow,
  bCeil,
  bCost,
  bCostTeam,
  bScale,
  bLong,
  bPhone,
  bDeflate,
  profileLoadL,
];
