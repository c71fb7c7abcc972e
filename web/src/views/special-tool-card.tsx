import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ToolItem } from '../hub/chat-types.js';
import { bareName, type TodoRef } from '../hub/todo-cards.js';
import { t } from '../i18n.js';
import { arr, rec, str } from '../wire.js';
import { Icon } from './icons.js';
import { Markdown } from './markdown-view.js';

function outputText(item: ToolItem): string {
  return item.content.flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : [])).join('\n');
}

const MARK: Record<string, string> = { completed: '✓', in_progress: '◐', pending: '○' };

/** Where a todo card's steps are drawn instead of in it (hub/todo-cards.ts); undefined: in it. */
export const TodoRefContext = createContext<TodoRef | undefined>(undefined);

/** TodoWrite: the list itself, with how much of it is done — or, where another view shows these steps, a line that points there. */
function TodoCard({ item, todos }: { item: ToolItem; todos: Array<Record<string, unknown>> }) {
  const done = todos.filter((x) => x['status'] === 'completed').length;
  const ref = useContext(TodoRefContext);
  const head = (
    <>
      <Icon name="check" size={16} />
      <span class="tool-title">{t('todoCard')}</span>
      <span class="pill">{t('todoDone', done, todos.length)}</span>
    </>
  );
  return (
    <div class={`tool tool-${item.status} tool-special`} data-testid="tool-card" data-special="todo" data-status={item.status}>
      {ref ? (
        <div class="todo-ref">
          {head}
          <span class="muted small">{t(ref === 'plan' ? 'todoInPlan' : 'todoBelow')}</span>
        </div>
      ) : (
        <details>
          <summary>{head}</summary>
          <ul class="todo-list">
            {todos.map((x, i) => (
              <li key={i} class={`todo todo-${str(x['status']) ?? 'pending'}`}>
                <span class="todo-mark" aria-hidden="true">
                  {MARK[str(x['status']) ?? 'pending'] ?? '○'}
                </span>
                <span>{str(x['content']) ?? str(x['activeForm']) ?? ''}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** ExitPlanMode: the proposed plan, readable. */
function PlanCard({ item, plan }: { item: ToolItem; plan: string }) {
  return (
    <div class={`tool tool-${item.status} tool-special`} data-testid="tool-card" data-special="plan" data-status={item.status}>
      <details open={item.status !== 'completed'}>
        <summary>
          <Icon name="file" size={16} />
          <span class="tool-title">{t('planCard')}</span>
          {item.status === 'failed' ? (
            <span class="pill pill-failed">{t('planNotApproved')}</span>
          ) : item.status === 'completed' ? (
            <span class="pill pill-completed">{t('planApproved')}</span>
          ) : null}
        </summary>
        <div class="tool-body">
          <Markdown text={plan} />
        </div>
      </details>
    </div>
  );
}

/** AskUserQuestion: the questions asked and, once answered, the answers. */
function QuestionCard({ item, questions }: { item: ToolItem; questions: string[] }) {
  const answer = outputText(item);
  return (
    <div class={`tool tool-${item.status} tool-special`} data-testid="tool-card" data-special="question" data-status={item.status}>
      <details>
        <summary>
          <Icon name="search" size={16} />
          <span class="tool-title">{questions.length === 1 ? questions[0] : t('questionCard', questions.length)}</span>
          {item.status === 'completed' ? <span class="pill pill-completed">{t('questionAnswered')}</span> : null}
        </summary>
        <div class="tool-body">
          {questions.length > 1 ? (
            <ul class="todo-list">
              {questions.map((q, i) => (
                <li key={i}>{q}</li>
              ))}
            </ul>
          ) : null}
          {answer ? <pre class="tool-text">{answer}</pre> : null}
        </div>
      </details>
    </div>
  );
}

/**
 * Tools that are not really tool calls for the reader — the todo list, the plan, a question —
 * rendered as what they are instead of a card named "TodoWrite". Undefined = an ordinary card.
 */
export function specialToolCard(item: ToolItem) {
  const input = rec(item.input);
  switch (bareName(item)) {
    case 'TodoWrite': {
      const todos = arr(input?.['todos']).flatMap((x) => (rec(x) ? [rec(x)!] : []));
      return todos.length ? <TodoCard item={item} todos={todos} /> : undefined;
    }
    case 'ExitPlanMode': {
      const plan = str(input?.['plan']);
      return plan ? <PlanCard item={item} plan={plan} /> : undefined;
    }
    case 'AskUserQuestion': {
      const questions = arr(input?.['questions']).flatMap((q) => (str(rec(q)?.['question']) ? [str(rec(q)?.['question'])!] : []));
      return questions.length ? <QuestionCard item={item} questions={questions} /> : undefined;
    }
    default:
      return undefined;
  }
}
