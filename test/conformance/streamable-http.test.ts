import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { conformanceSuite } from '../support/conformance-walk.js';

/** ACP over Streamable HTTP (`POST`/`GET`/`DELETE /acp`): the conformance walk (test/support/conformance-walk.ts) for every scenario. */
conformanceSuite('Streamable HTTP', async (hub) =>
  createHttpStream(`${hub.url}/acp`, { headers: { authorization: `Bearer ${hub.adminToken}` } }),
);
