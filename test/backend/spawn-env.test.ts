import { describe, expect, it } from 'vitest';
import { buildChildEnv, SIM_ENV_PREFIXES } from '../../src/backend/spawn-env.js';

const set = { ZCODE_BUILTIN_PROVIDER_CONFIG_FILE: '/s/zcode-builtin.json', ZCODE_PERSONAL_PROVIDER_CONFIG_FILE: '/p/provider_config.json' };

describe('child environment allow-list', () => {
  it('keeps what a Node CLI needs and drops secrets and injection knobs', () => {
    const env = buildChildEnv(
      {
        PATH: '/usr/bin',
        HOME: '/home/u',
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        HTTPS_PROXY: 'http://proxy:3128',
        ZCODE_DATA_BASE_DIR: '/d',
        NODE_OPTIONS: '--require /tmp/evil.js',
        ZCODE_HUB_ADMIN_TOKEN: 'zch_admin_secret',
        OPENAI_API_KEY: 'sk-secret',
        AWS_SECRET_ACCESS_KEY: 'x',
        GITHUB_TOKEN: 'ghp_x',
        ZCODE_SIM_EXIT_IMMEDIATELY: '1',
        BASH_FUNC_x: '() { echo hi; }',
        SHELL: '() { evil; }',
      },
      { platform: 'linux', set },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy:3128',
      ZCODE_DATA_BASE_DIR: '/d',
      ...set,
    });
  });

  it('sets both provider variables, overriding inherited ones (§9.4)', () => {
    const env = buildChildEnv({ ZCODE_PERSONAL_PROVIDER_CONFIG_FILE: '/elsewhere' }, { platform: 'linux', set });
    expect(env.ZCODE_PERSONAL_PROVIDER_CONFIG_FILE).toBe('/p/provider_config.json');
    expect(env.ZCODE_BUILTIN_PROVIDER_CONFIG_FILE).toBe('/s/zcode-builtin.json');
  });

  it('passes ZCODE_SIM_* only to the simulator', () => {
    expect(buildChildEnv({ ZCODE_SIM_SLOW_MS: '5' }, { platform: 'linux', set: {}, extraPrefixes: SIM_ENV_PREFIXES })).toEqual({
      ZCODE_SIM_SLOW_MS: '5',
    });
    expect(buildChildEnv({ ZCODE_SIM_SLOW_MS: '5' }, { platform: 'linux', set: {} })).toEqual({});
  });

  it('matches Windows names case-insensitively and keeps their original spelling', () => {
    const env = buildChildEnv(
      { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files', Secret: 'x' },
      { platform: 'win32', set: {} },
    );
    expect(env).toEqual({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files' });
    // on POSIX, case matters
    expect(buildChildEnv({ Path: '/x' }, { platform: 'linux', set: {} })).toEqual({});
  });
});
