/**
 * Where the credentials of the other machines live: the home origin's IndexedDB, one record per
 * machine keyed by its hubId (never by URL, so a machine reached through a new tunnel URL is the
 * same entry). Each record holds the bound token and its CryptoKeyPair; the private key was made
 * non-extractable, and IndexedDB stores the key object itself (structured clone), so script can
 * sign with it while the page is open but can never read its bytes. About 50 lines of plain
 * IndexedDB, so no wrapper library.
 */

export interface MachineCred {
  hubId: string;
  /** The machine's public base URL (origin, no trailing slash). */
  url: string;
  name: string;
  scope: string;
  token: string;
  /** The token's id on that machine (to name it in `zcode-hub devices revoke`). */
  tokenId?: string;
  keys: CryptoKeyPair;
  addedAt: number;
}

const DB = 'zcode-hub-machines';
const STORE = 'machines';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: 'hubId' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB unavailable'));
  });
}

async function run<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB error'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB aborted'));
    });
  } finally {
    db.close();
  }
}

/** Every stored machine, oldest first. */
export async function loadCreds(): Promise<MachineCred[]> {
  const all = await run('readonly', (s) => s.getAll() as IDBRequest<MachineCred[]>);
  return all.sort((a, b) => a.addedAt - b.addedAt);
}

/** Saves (or replaces, same hubId) one machine. */
export async function saveCred(cred: MachineCred): Promise<void> {
  await run('readwrite', (s) => s.put(cred));
}

/** Forgets one machine's token and key. */
export async function deleteCred(hubId: string): Promise<void> {
  await run('readwrite', (s) => s.delete(hubId));
}
