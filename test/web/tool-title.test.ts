import { describe, expect, it } from 'vitest';
import { plainTitle, relativeTitle, titleParts } from '../../web/src/hub/tool-title.js';

describe('tool titles on the phone', () => {
  it('drops the workspace from paths inside it, and only from those', () => {
    expect(relativeTitle('Read /home/ann/proj/src/a.ts', '/home/ann/proj')).toBe('Read src/a.ts');
    expect(relativeTitle('Read /home/ann/proj/src/a.ts', '/home/ann/proj/')).toBe('Read src/a.ts');
    expect(relativeTitle('Grep TODO in /home/ann/proj', '/home/ann/proj')).toBe('Grep TODO in .');
    // A sibling folder that starts with the same letters is not inside the workspace.
    expect(relativeTitle('Read /home/ann/project2/a.ts', '/home/ann/proj')).toBe('Read /home/ann/project2/a.ts');
    expect(relativeTitle('Read /etc/hosts', '/home/ann/proj')).toBe('Read /etc/hosts');
    expect(relativeTitle('Read /a/b', undefined)).toBe('Read /a/b');
    // Characters that mean something in a pattern are taken as they are.
    expect(relativeTitle('Read /tmp/a+b (1)/x.ts', '/tmp/a+b (1)')).toBe('Read x.ts');
  });

  it('splits inline code out of the title; an unpaired backtick stays text', () => {
    expect(titleParts('`npm test`', undefined)).toEqual([{ text: 'npm test', code: true }]);
    expect(titleParts('Run `ls /w/src` then `pwd`', '/w')).toEqual([
      { text: 'Run ', code: false },
      { text: 'ls src', code: true },
      { text: ' then ', code: false },
      { text: 'pwd', code: true },
    ]);
    expect(titleParts('it`s fine', undefined)).toEqual([{ text: 'it`s fine', code: false }]);
    expect(titleParts('', undefined)).toEqual([]);
  });

  it('code never spans a line break (a prompt with a stray backtick per line stays text); the plain words drop the backticks', () => {
    expect(titleParts('one `a\nb` two', undefined)).toEqual([{ text: 'one `a\nb` two', code: false }]);
    expect(titleParts('run `npm test`\nthen `lint`', undefined)).toEqual([
      { text: 'run ', code: false },
      { text: 'npm test', code: true },
      { text: '\nthen ', code: false },
      { text: 'lint', code: true },
    ]);
    expect(plainTitle('keep a `todo` list')).toBe('keep a todo list');
    expect(plainTitle('it`s fine')).toBe('it`s fine');
  });
});
