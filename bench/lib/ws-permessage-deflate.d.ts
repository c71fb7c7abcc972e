// ws ships its PerMessageDeflate without types (@types/ws does not declare the internal module);
// B-DEFLATE uses only what is declared here, as ws 8 defines it.
declare module 'ws/lib/permessage-deflate.js' {
  export default class PerMessageDeflate {
    constructor(options: {
      isServer?: boolean;
      serverNoContextTakeover?: boolean;
      serverMaxWindowBits?: number;
      zlibDeflateOptions?: { memLevel?: number };
      threshold?: number;
      maxPayload?: number;
    });
    accept(configurations: Array<Record<string, unknown>>): Record<string, unknown>;
    compress(data: Buffer, fin: boolean, callback: (err: Error | null, result: Buffer) => void): void;
    cleanup(): void;
  }
}
