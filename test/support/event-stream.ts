import type { CartEvent, StockEvent } from '../../src/shared/api';
import type { Client } from './client';

/**
 * An open live stream (the cart's, unless `open` is told another path and its event type), read the way EventSource
 * would, with a wait for the next event of a type.
 */
export class EventStream<Event extends { type: string } = CartEvent> {
  readonly events: Event[] = [];
  closed = false;
  #waiters: Array<() => void> = [];
  #abort = new AbortController();

  private constructor(readonly status: number) {}

  /**
   * Opens `path` (the cart's stream unless told) as `client`. fetch cannot choose its source address, so the
   * client's address also rides in X-Forwarded-For, which a server with TRUST_PROXY=1 counts it under.
   */
  static async open<E extends { type: string } = CartEvent>(
    client: Client,
    path = '/api/cart/stream',
  ): Promise<EventStream<E>> {
    const controller = new AbortController();
    const response = await fetch(`${client.baseUrl}${path}`, {
      headers: { cookie: client.cookieHeader, accept: 'text/event-stream', 'x-forwarded-for': client.address },
      signal: controller.signal,
    });
    const stream = new EventStream<E>(response.status);
    stream.#abort = controller;
    if (response.ok && response.body) void stream.#read(response.body);
    else stream.closed = true;
    return stream;
  }

  async #read(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      // lib.dom types a ReadableStream without its async iterator; Node has one.
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          this.#parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close()
    }
    this.closed = true;
    this.#wake();
  }

  #parse(block: string) {
    let type = '';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) type = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (!type) return;
    this.events.push({ type, ...JSON.parse(data) } as Event);
    this.#wake();
  }

  #wake() {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves with the first event of `type` after the first `skip` ones, or rejects after `ms`. */
  async next<T extends Event['type']>(type: T, ms = 3000, skip = 0): Promise<Extract<Event, { type: T }>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.filter((e) => e.type === type)[skip];
      if (found) return found as Extract<Event, { type: T }>;
      if (this.closed) throw new Error(`stream closed before a ${type} event`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} event within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves once the server has closed the stream, or rejects after `ms`. */
  async ended(ms = 3000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error(`stream still open after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close() {
    this.#abort.abort();
  }
}

/** The live stock stream (GET /api/catalogue/stream) of `client`. */
export function openStockStream(client: Client): Promise<EventStream<StockEvent>> {
  return EventStream.open<StockEvent>(client, '/api/catalogue/stream');
}

/**
 * A stream read as raw text, for streams whose events are not the cart's (the owner's live list): `until` waits
 * for a pattern in what has arrived, `toEnd` reads until the server ends the stream.
 */
export async function openRawStream(url: string, cookie: string) {
  const response = await fetch(url, { headers: { cookie, accept: 'text/event-stream' } });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const more = async () => {
    const { value, done } = await reader.read();
    if (!done) text += decoder.decode(value, { stream: true });
    return !done;
  };
  return {
    response,
    get text() {
      return text;
    },
    async until(pattern: RegExp) {
      while (!pattern.test(text)) if (!(await more())) throw new Error(`stream ended before ${pattern}`);
    },
    async toEnd() {
      while (await more());
    },
    close: () => reader.cancel(),
  };
}
