'use client';

import { type Edge, Handle, MarkerType, type Node, type NodeProps, Position, ReactFlow } from '@xyflow/react';
// React Flow's own styles (edge paths, labels, the viewport); the CSP allows inline styles, which it also sets.
import '@xyflow/react/dist/style.css';
import { type FlowEdge, type FlowStep, flowStepLabels } from '../schemas';
import styles from './message-flow-diagram.module.css';

/**
 * The pipeline as a diagram: the decision along the top row, what follows it back along the bottom row, and
 * the update feeding the posterior again; each edge labelled with what passed along it. Read-only: nothing is
 * dragged, connected, selected or deleted. Every node and edge takes focus with Tab and carries its count in
 * its label, and the table beside it holds the same figures for anyone who cannot use the canvas.
 */
const column = 260;
const row = 200;
const layout: Record<FlowStep, { x: number; y: number }> = {
  'patient-data': { x: 0, y: 0 },
  context: { x: column, y: 0 },
  posterior: { x: 2 * column, y: 0 },
  probabilities: { x: 3 * column, y: 0 },
  choice: { x: 4 * column, y: 0 },
  message: { x: 4 * column, y: row },
  reply: { x: 3 * column, y: row },
  reward: { x: 2 * column, y: row },
  update: { x: column, y: row },
};
const sides = [
  ['left', Position.Left],
  ['right', Position.Right],
  ['top', Position.Top],
  ['bottom', Position.Bottom],
] as const;
type Side = (typeof sides)[number][0];

/** Which side each edge leaves and enters by: along the rows, down from choice to message, up from update. */
function sidesOf(edge: FlowEdge): { from: Side; to: Side } {
  if (edge.from === 'choice') return { from: 'bottom', to: 'top' };
  if (edge.from === 'update') return { from: 'top', to: 'bottom' };
  return layout[edge.from].y === 0 ? { from: 'right', to: 'left' } : { from: 'left', to: 'right' };
}

type StepNode = Node<{ label: string; note: string | null }, 'step'>;

function StepBox({ data }: NodeProps<StepNode>) {
  return (
    <div className="w-[150px] rounded-md border border-[#3f3f46] bg-white px-3 py-2 text-center text-xs text-black">
      {sides.map(([side, position]) => (
        <Handle key={`in-${side}`} id={`in-${side}`} type="target" position={position} isConnectable={false} style={{ opacity: 0 }} />
      ))}
      <span className="block font-semibold">{data.label}</span>
      {data.note === null ? null : <span className="block">{data.note}</span>}
      {sides.map(([side, position]) => (
        <Handle key={`out-${side}`} id={`out-${side}`} type="source" position={position} isConnectable={false} style={{ opacity: 0 }} />
      ))}
    </div>
  );
}

const nodeTypes = { step: StepBox };

const ariaLabels = {
  'node.a11yDescription.default': 'A step of the pipeline. Press Tab to go to the next one.',
  'edge.a11yDescription.default': 'What passed from one step to the next in the period.',
};

export function MessageFlowDiagram(props: { edges: FlowEdge[]; notes: Partial<Record<FlowStep, string>>; period: string }) {
  const nodes: StepNode[] = (Object.keys(layout) as FlowStep[]).map((step) => {
    const note = props.notes[step] ?? null;
    return {
      id: step,
      type: 'step',
      position: layout[step],
      data: { label: flowStepLabels[step], note },
      ariaLabel: note === null ? flowStepLabels[step] : `${flowStepLabels[step]}: ${note}`,
    };
  });
  const edges: Edge[] = props.edges.map((edge) => {
    const { from, to } = sidesOf(edge);
    return {
      id: edge.id,
      source: edge.from,
      target: edge.to,
      sourceHandle: `out-${from}`,
      targetHandle: `in-${to}`,
      label: `${edge.count.display} ${edge.short}`,
      ariaLabel: `${flowStepLabels[edge.from]} to ${flowStepLabels[edge.to]}: ${edge.count.display} ${edge.what}, ${props.period}`,
      type: 'smoothstep',
      markerEnd: { type: MarkerType.ArrowClosed, color: '#3f3f46' },
      style: { stroke: '#3f3f46' },
      labelBgPadding: [4, 2] as [number, number],
      labelStyle: { fontSize: 12, fill: '#18181b' },
    };
  });
  return (
    <div
      className={`h-[420px] w-full rounded-xl border border-separator bg-white text-black ${styles.diagram}`}
      data-testid="message-flow-diagram"
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ padding: 0.1 }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable
        edgesFocusable
        zoomOnScroll={false}
        panOnScroll={false}
        preventScrolling={false}
        ariaLabelConfig={ariaLabels}
        aria-label={`The personalised message pipeline with live counts, ${props.period}`}
      />
    </div>
  );
}
