// The peer side of Winnow's benchmark: bpmn-engine runs N instances of
// start → service task (its handler completes at once) → end, and prints one
// JSON line per run with the time the N instances took. The XML is parsed once and
// every instance reuses the parsed model, so only execution is measured.
import { readFileSync } from 'node:fs';
import { Engine } from 'bpmn-engine';
import BpmnModdle from 'bpmn-moddle';

const n = Number(process.argv[2] ?? 10000);
const runs = Number(process.argv[3] ?? 1);
const mode = process.argv[4] ?? 'sequential';
const source = readFileSync(new URL('./process.bpmn', import.meta.url), 'utf8');
const moddleContext = await new BpmnModdle().fromXML(source);
let calls = 0;
const services = {
  work (executionContext, callback) {
    calls++;
    callback(null, {});
  },
};

function runOne (i) {
  const engine = new Engine({ name: `i${i}`, moddleContext });

  return new Promise((resolve, reject) => {
    engine.once('end', resolve);
    engine.once('error', reject);
    engine.execute({ services }).catch(reject);
  });
}

async function runAll () {
  if (mode === 'concurrent') {
    const all = [];
    for (let i = 1; i <= n; i++)
      all.push(runOne(i));
    await Promise.all(all);
  } else {
    for (let i = 1; i <= n; i++)
      await runOne(i);
  }
}

await runOne(0);  // warm-up: load every module once
for (let run = 1; run <= runs; run++) {
  calls = 0;
  const started = process.hrtime.bigint();
  await runAll();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (calls !== n)
    throw new Error(`the service task ran ${calls} times for ${n} instances`);
  console.log(JSON.stringify({ engine: 'bpmn-engine', mode, run, instances: n, seconds, per_second: n / seconds }));
}
