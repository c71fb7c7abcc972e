import { parseParams, ProtocolError, RPC } from '../protocol-error.js';
import { GoalParams } from '../schemas/session-params.js';
import { newId, type SessionRuntime } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSettings, buildSnapshot } from '../snapshot.js';
import { startTurn } from '../turn/turn-runner.js';
import { checkRevision } from './guards.js';

const PLAN_NOTE = '\n当前为计划模式：目标已记录，但不会自动开始执行。';

function summary(rt: SessionRuntime): string {
  const g = rt.goal;
  if (!g) return 'No goal is set. Use /goal <objective> to set one.';
  return `Goal ${g.status}\nObjective: ${g.objective}\nUsage: ${g.tokensUsed} tokens / ${g.tokenBudget ?? 'none'}\nTime: ${g.timeUsedSeconds} seconds`;
}

/** Starts a goal-continuation turn (holds the -32010 lock, §4.8 rule 4). */
function continueGoal(sim: SimulatorCore, rt: SessionRuntime, inputId?: string): void {
  const goal = rt.goal;
  if (!goal) return;
  rt.promptLock = true;
  rt.info.status = 'running';
  void startTurn(sim, rt, {
    text: goal.objective,
    origin: 'legacy',
    behaviour: 'goal',
    inputSource: 'goal-continuation',
    inputVisibility: 'model-only',
    ...(inputId ? { inputId } : {}),
    lock: { success: 'goal_continuation_completed', cancelled: 'goal_continuation_completed', failed: 'goal_continuation_failed' },
  }).then(() => {
    // One continuation is enough for the simulator: a finished run completes the goal.
    if (rt.goal && rt.goal.targetId === goal.targetId && rt.goal.status === 'active') {
      rt.goal.status = 'complete';
      rt.goal.tokensUsed += 500;
      rt.goal.updatedAt = Date.now();
    }
  });
}

/** `session/goal` (§4.12). */
export function goal(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(GoalParams, params);
  const rt = sim.requireActive(p.sessionId);
  checkRevision(rt, p.expectedRevision);
  const busy = rt.promptLock || rt.activeTurn !== undefined;
  if (busy && p.action !== 'pause') throw new ProtocolError(RPC.busy, 'Cannot manage goals while a prompt is running');
  const settings = (): unknown => buildSettings(rt, sim.registry, 'current');
  const done = (response: string, startedTurn?: boolean): unknown => ({
    response,
    snapshot: buildSnapshot(rt, sim.registry, 'current'),
    ...(startedTurn ? { startedTurn } : {}),
  });
  const now = Date.now();
  switch (p.action) {
    case 'show':
      return done(summary(rt));
    case 'set':
    case 'replace': {
      const objective = (p.objective ?? '').trim();
      if (objective === '') return done(p.action === 'set' ? 'Usage: /goal <objective>' : 'Usage: /goal replace <objective>');
      const replaced = rt.goal !== null;
      rt.goal = {
        sessionId: rt.sessionId,
        targetId: newId('goal'),
        objective,
        summaryTitle: null,
        status: 'active',
        tokenBudget: null,
        tokensUsed: 0,
        timeUsedSeconds: 0,
        createdAt: now,
        updatedAt: now,
      };
      rt.emit('session.updated', { action: 'set', target: rt.goal });
      rt.stateUpdated(replaced ? 'goal_replaced' : 'goal_set', settings());
      const text = `Goal active\nObjective: ${objective}\nUsage: 0 tokens / none`;
      if (rt.info.mode === 'plan') return done(text + PLAN_NOTE);
      continueGoal(sim, rt, p.inputId);
      return done(text, true);
    }
    case 'pause': {
      if (rt.goal?.status !== 'active') return done('No goal to pause.');
      rt.goal.status = 'paused';
      rt.goal.updatedAt = now;
      rt.activeTurn?.abort.abort();
      rt.stateUpdated('goal_paused', settings());
      return done('');
    }
    case 'resume': {
      if (rt.goal?.status !== 'paused') return done('No goal to resume.');
      rt.goal.status = 'active';
      rt.goal.updatedAt = now;
      rt.stateUpdated('goal_resumed', settings());
      continueGoal(sim, rt, p.inputId);
      return done(summary(rt), true);
    }
    case 'clear': {
      if (!rt.goal) return done('No goal to clear.');
      rt.goal = null;
      rt.emit('session.updated', { action: 'cleared', target: null });
      rt.stateUpdated('goal_cleared', settings());
      return done('Goal cleared.');
    }
  }
}
