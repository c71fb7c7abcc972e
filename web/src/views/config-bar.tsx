import type { ChatState } from '../hub/chat-types.js';
import type { HubClient } from '../hub/hub-client.js';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { notSentWhy } from '../hub/not-sent.js';
import { type Choice, choicesOf } from '../hub/config-choices.js';
import { ContextMeter, useContextUsage } from './context-meter.js';

function Picker({
  label,
  value,
  choices,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  choices: Choice[];
  onChange: (v: string) => void;
  testId: string;
}) {
  return (
    <label class="picker">
      <span class="sr-only">{label}</span>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} data-testid={testId}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.name || c.value}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Mode, model and thought-level pickers plus the context meter (`session/set_config_option`). */
export function ConfigBar({ chat, client, canOperate }: { chat: ChatState; client: HubClient; canOperate: boolean }) {
  const selects = chat.configOptions.filter((o) => o.type === 'select');
  const hasModeOption = selects.some((o) => o.id === 'mode' || o.category === 'mode');
  const usage = useContextUsage(chat.sessionId);
  const change = (fn: () => Promise<void>) => fn().catch((err: Error) => toast(notSentWhy('setting', err) ?? t('error', err.message)));
  // Nothing to show (a view device before the first usage report): no bar, not an empty bordered strip.
  if (!usage && !(canOperate && (selects.length || (!hasModeOption && chat.modes.length)))) return null;
  return (
    <div class="config-bar">
      {canOperate && !hasModeOption && chat.modes.length ? (
        <Picker
          label={t('mode')}
          value={chat.modeId ?? ''}
          choices={chat.modes.map((m) => ({ value: m.id, name: m.name }))}
          onChange={(v) => change(() => client.setMode(chat.sessionId, v))}
          testId="picker-mode"
        />
      ) : null}
      {canOperate
        ? selects.map((o) => (
            <Picker
              key={o.id}
              label={o.id === 'model' ? t('model') : o.id === 'thought_level' ? t('thoughtLevel') : o.id === 'mode' ? t('mode') : o.name}
              value={o.type === 'select' ? o.currentValue : ''}
              // A bare "high" next to the model says little: the level names what it is.
              choices={
                o.id === 'thought_level'
                  ? choicesOf(o).map((c) => ({ ...c, name: t('thoughtLevelNamed', c.name || c.value) }))
                  : choicesOf(o)
              }
              onChange={(v) => change(() => client.setConfig(chat.sessionId, o.id, v))}
              testId={`picker-${o.id}`}
            />
          ))
        : null}
      {usage ? <ContextMeter usage={usage} /> : null}
    </div>
  );
}
