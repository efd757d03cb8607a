// The BPMN parser peer of Winnow's benchmark: bpmn-moddle (the parser of
// bpmn.io and Camunda Modeler) reads FILE RUNS + 1 times (the first warms
// up) and prints one JSON line per timed run: the CPU milliseconds (user +
// system, process.cpuUsage(), as wn-bench times Winnow) and the wall
// milliseconds fromXML took, from the XML text (read once, before timing) to
// the model with its references resolved, and how many flow elements and
// warnings it found.
//
//   node moddle.mjs FILE [RUNS]
import { readFileSync } from 'node:fs';
import BpmnModdle from 'bpmn-moddle';

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const xml = readFileSync(file, 'utf8');
const moddle = new BpmnModdle();

for (let i = 0; i <= runs; i++) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const { rootElement, warnings } = await moddle.fromXML(xml);
  const cpu = process.cpuUsage(c0);
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const ms = (cpu.user + cpu.system) / 1000;
  const process_ = rootElement.rootElements.find((e) => e.$type === 'bpmn:Process');
  const elements = process_ ? process_.flowElements.length : 0;

  if (i > 0)
    console.log(JSON.stringify({ ms, wall, elements, warnings: warnings.length }));
}
