// Preloaded into the server by bench/soak.ts (`node --import bench/lib/memory-probe.mjs …`); Node
// runs a preload in every worker thread too. When GUARDRAIL_MEMORY_PROBE names a file, each thread
// appends one JSON line a second with its own V8 heap (an isolate's heap is per thread): what
// /proc cannot tell apart. Plain JS: the server may run from dist/ without tsx.
import { appendFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { isMainThread, threadId } from "node:worker_threads";

const file = process.env.GUARDRAIL_MEMORY_PROBE;
if (file) {
  const sample = () => {
    const heap = getHeapStatistics();
    const line = {
      thread: threadId,
      main: isMainThread,
      at: Date.now(),
      heapTotal: heap.total_heap_size,
      heapUsed: heap.used_heap_size,
      // ArrayBuffers (Node Buffers and typed arrays: model weights, vectors) and other C++ memory
      // V8 accounts to this isolate.
      external: heap.external_memory,
      malloced: heap.malloced_memory,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, 1000).unref();
}
