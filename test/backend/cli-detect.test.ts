import { describe, expect, it } from 'vitest';
import {
  detectZcodeCli,
  findShippedBuiltinProviderFile,
  zcodeCliCandidates,
  ZCODE_INSTALL_LOCATIONS,
  type FsProbe,
} from '../../src/backend/cli-detect.js';

function probe(files: string[], dirs: Record<string, string[]> = {}): FsProbe {
  const set = new Set(files);
  return { isFile: (f) => set.has(f), listDir: (d) => dirs[d] ?? [] };
}

describe('ZCode CLI detection across the three OS tables', () => {
  it('macOS: /Applications first, then ~/Applications', () => {
    const env = { HOME: '/Users/ann' };
    const system = '/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs';
    const user = '/Users/ann/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs';
    expect(detectZcodeCli(env, 'darwin', probe([system, user]))).toBe(system);
    expect(detectZcodeCli(env, 'darwin', probe([user]))).toBe(user);
    expect(detectZcodeCli(env, 'darwin', probe([]))).toBeUndefined();
  });

  it('Linux: /opt, /usr/lib, ~/.local/share, XDG_DATA_HOME and extracted AppImages', () => {
    const env = { HOME: '/home/bo', XDG_DATA_HOME: '/data/bo' };
    const cases = [
      '/opt/ZCode/resources/glm/zcode.cjs',
      '/usr/lib/zcode/resources/glm/zcode.cjs',
      '/data/bo/zcode/resources/glm/zcode.cjs',
      '/home/bo/.local/share/zcode/resources/glm/zcode.cjs',
      '/home/bo/Applications/squashfs-root/resources/glm/zcode.cjs',
      '/home/bo/squashfs-root/resources/glm/zcode.cjs',
    ];
    for (const file of cases) expect(detectZcodeCli(env, 'linux', probe([file]))).toBe(file);
    // precedence follows the table order
    expect(detectZcodeCli(env, 'linux', probe([cases[3]!, cases[0]!]))).toBe(cases[0]);
    // an AppImage mount point wins when the hub runs inside one
    expect(
      detectZcodeCli({ ...env, APPDIR: '/tmp/.mount_ZCodeX' }, 'linux', probe(['/tmp/.mount_ZCodeX/resources/glm/zcode.cjs', cases[0]!])),
    ).toBe('/tmp/.mount_ZCodeX/resources/glm/zcode.cjs');
  });

  it('Linux: unset variables drop their candidates', () => {
    const list = zcodeCliCandidates({}, 'linux', probe([]));
    expect(list.some((p) => p.includes('{') || p.startsWith('/resources'))).toBe(false);
    expect(list).toContain('/opt/ZCode/resources/glm/zcode.cjs');
  });

  it('Windows: %LOCALAPPDATA%\\Programs, %ProgramFiles% and Squirrel app-* folders (newest first)', () => {
    const env = {
      LOCALAPPDATA: 'C:\\Users\\cy\\AppData\\Local',
      ProgramFiles: 'C:\\Program Files',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    };
    const perUser = 'C:\\Users\\cy\\AppData\\Local\\Programs\\ZCode\\resources\\glm\\zcode.cjs';
    const perMachine = 'C:\\Program Files\\ZCode\\resources\\glm\\zcode.cjs';
    expect(detectZcodeCli(env, 'win32', probe([perMachine, perUser]))).toBe(perUser);
    expect(detectZcodeCli(env, 'win32', probe([perMachine]))).toBe(perMachine);
    const squirrel = probe(
      [
        'C:\\Users\\cy\\AppData\\Local\\ZCode\\app-3.9.0\\resources\\glm\\zcode.cjs',
        'C:\\Users\\cy\\AppData\\Local\\ZCode\\app-3.12.2\\resources\\glm\\zcode.cjs',
      ],
      { 'C:\\Users\\cy\\AppData\\Local\\ZCode': ['app-3.9.0', 'app-3.12.2', 'packages'] },
    );
    expect(detectZcodeCli(env, 'win32', squirrel)).toBe('C:\\Users\\cy\\AppData\\Local\\ZCode\\app-3.12.2\\resources\\glm\\zcode.cjs');
  });

  it('Windows: environment names are case-insensitive', () => {
    const file = 'C:\\Users\\cy\\AppData\\Local\\Programs\\ZCode\\resources\\glm\\zcode.cjs';
    expect(detectZcodeCli({ localappdata: 'C:\\Users\\cy\\AppData\\Local' }, 'win32', probe([file]))).toBe(file);
  });

  it('other platforms detect nothing; every table entry ends in glm/zcode.cjs', () => {
    expect(detectZcodeCli({ HOME: '/h' }, 'freebsd', probe(['/opt/ZCode/resources/glm/zcode.cjs']))).toBeUndefined();
    for (const list of Object.values(ZCODE_INSTALL_LOCATIONS))
      for (const entry of list) expect(entry.replace(/\\/g, '/')).toMatch(/\/glm\/zcode\.cjs$/i);
  });

  it('finds the shipped built-in provider file beside the entry or in an ancestor config/provider (§9.4)', () => {
    const cli = '/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs';
    const bundle = '/Applications/ZCode.app/Contents/Resources/config/provider/zcode-builtin.json';
    expect(findShippedBuiltinProviderFile(cli, 'darwin', probe([bundle]))).toBe(bundle);
    const beside = '/Applications/ZCode.app/Contents/Resources/glm/provider/zcode-builtin.json';
    expect(findShippedBuiltinProviderFile(cli, 'darwin', probe([bundle, beside]))).toBe(beside);
    expect(findShippedBuiltinProviderFile('/opt/ZCode/resources/glm/zcode.cjs', 'linux', probe([]))).toBeUndefined();
    expect(
      findShippedBuiltinProviderFile(
        'C:\\Program Files\\ZCode\\resources\\glm\\zcode.cjs',
        'win32',
        probe(['C:\\Program Files\\ZCode\\resources\\config\\provider\\zcode-builtin.json']),
      ),
    ).toBe('C:\\Program Files\\ZCode\\resources\\config\\provider\\zcode-builtin.json');
  });
});
