#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write a chain of service tasks: start -> s0 -> s1 -> ... -> end.

    bench/chain.py N [--bpmn] [--input all|named] [-o FILE]

N is the number of nodes (start and end included, N >= 3). Every task is a
worker task on the topic "work" that one worker completes after 1 ms of
virtual time (a chain run at one instant would trip the engine's zero-time
loop guard past 10^5 nodes) with a small body. `--input all` (the default) leaves out the worker's
`input`, so each job's input is every instance variable (files.md); `named`
gives each task `"input": ["order"]`. Each task writes its own output
variable (the node id), so the instance holds one more variable after every
task: a chain of N tasks ends with about N variables.

`--bpmn` writes the same chain as a BPMN 2.0 model (Camunda external tasks,
a BPMNDI shape per node and an edge per flow); BPMN has no scenario, so give
winnow-run the worker with `--scenario bench/data/chain.scenario.json`.

This is the input of the chain rows in docs/performance.md ("Long chains"):
validation, a run and the app's loading at 10^4 ... 10^6 nodes.
"""
import argparse
import sys


def json_chain(n, named, out):
    tasks = n - 2
    w = out.write
    w('{\n  "format": "winnow.process/1",\n  "id": "chain",\n')
    w('  "variables": { "order": { "id": "A-1", "total": 50 } },\n')
    w('  "nodes": [\n    { "id": "start", "type": "startEvent" }')
    inp = ', "input": ["order"]' if named else ''
    for i in range(tasks):
        w(',\n    { "id": "s%d", "type": "serviceTask", "worker": { "topic": "work"%s } }' % (i, inp))
    w(',\n    { "id": "end", "type": "endEvent" }\n  ],\n  "flows": [\n')
    prev = 'start'
    for i in range(tasks):
        w('    { "id": "f%d", "from": "%s", "to": "s%d" },\n' % (i, prev, i))
        prev = 's%d' % i
    w('    { "id": "f%d", "from": "%s", "to": "end" }\n  ],\n' % (tasks, prev))
    w('  "scenario": { "workers": [ { "id": "w", "topic": "work",'
      ' "responses": [ { "after": "1ms", "complete": { "body": { "ok": true } } } ] } ] }\n}\n')


def bpmn_chain(n, out):
    tasks = n - 2
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n'
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
      'xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" '
      'xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" '
      'xmlns:di="http://www.omg.org/spec/DD/20100524/DI" '
      'xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d">\n'
      '  <bpmn:process id="chain" isExecutable="true">\n'
      '    <bpmn:startEvent id="start"/>\n')
    for i in range(tasks):
        w('    <bpmn:serviceTask id="s%d" camunda:type="external" camunda:topic="work"/>\n' % i)
    w('    <bpmn:endEvent id="end"/>\n')
    prev = 'start'
    for i in range(tasks):
        w('    <bpmn:sequenceFlow id="f%d" sourceRef="%s" targetRef="s%d"/>\n' % (i, prev, i))
        prev = 's%d' % i
    w('    <bpmn:sequenceFlow id="f%d" sourceRef="%s" targetRef="end"/>\n' % (tasks, prev))
    w('  </bpmn:process>\n  <bpmndi:BPMNDiagram id="dia"><bpmndi:BPMNPlane id="plane" bpmnElement="chain">\n')
    w('    <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="0" y="102" width="36" height="36"/>'
      '</bpmndi:BPMNShape>\n')
    for i in range(tasks):
        w('    <bpmndi:BPMNShape id="s%d_di" bpmnElement="s%d"><dc:Bounds x="%d" y="80" width="100" height="80"/>'
          '</bpmndi:BPMNShape>\n' % (i, i, 86 + i * 150))
    w('    <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="%d" y="102" width="36" height="36"/>'
      '</bpmndi:BPMNShape>\n' % (86 + tasks * 150))
    x = 36
    for i in range(tasks + 1):
        w('    <bpmndi:BPMNEdge id="f%d_di" bpmnElement="f%d"><di:waypoint x="%d" y="120"/>'
          '<di:waypoint x="%d" y="120"/></bpmndi:BPMNEdge>\n' % (i, i, x, x + 50))
        x += 150 if i > 0 else 50
    w('  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>\n</bpmn:definitions>\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('nodes', type=int)
    parser.add_argument('--bpmn', action='store_true')
    parser.add_argument('--input', choices=('all', 'named'), default='all')
    parser.add_argument('-o', '--output')
    args = parser.parse_args()
    if args.nodes < 3:
        parser.error('a chain has at least 3 nodes (start, one task, end)')
    out = open(args.output, 'w', encoding='utf-8') if args.output else sys.stdout
    try:
        if args.bpmn:
            bpmn_chain(args.nodes, out)
        else:
            json_chain(args.nodes, args.input == 'named', out)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == '__main__':
    main()
