'use client';

import { type Edge, Handle, MarkerType, type Node, type NodeProps, Position, ReactFlow } from '@xyflow/react';
import { useSyncExternalStore } from 'react';
// React Flow's own styles (edge paths, labels, the viewport); the CSP allows inline styles, which it also sets.
import '@xyflow/react/dist/style.css';
import { type FlowEdge, type FlowStep, flowStepLabels } from '../schemas';
import styles from './message-flow-diagram.module.css';

/**
 * The pipeline as a diagram: the decision along the top row, what follows it back along the bottom row, and
 * the update feeding the posterior again; each edge labelled with what passed along it. Read-only: nothing is
 * dragged, connected, selected or deleted. Every node and edge takes focus with Tab and carries its count in
 * its label, and the table beside it holds the same figures for anyone who cannot use the canvas.
 *
 * On a narrow window the same diagram is turned on its side: the decision down the left column, what follows
 * it back up the right one. Five steps in a row need about 1,200 px, more than React Flow zooms out to on a
 * phone, so the row layout showed only the middle of the pipeline there.
 */
const grid: Record<FlowStep, { step: number; track: 0 | 1 }> = {
  'patient-data': { step: 0, track: 0 },
  context: { step: 1, track: 0 },
  posterior: { step: 2, track: 0 },
  probabilities: { step: 3, track: 0 },
  choice: { step: 4, track: 0 },
  message: { step: 4, track: 1 },
  reply: { step: 3, track: 1 },
  reward: { step: 2, track: 1 },
  update: { step: 1, track: 1 },
};
type Orientation = 'rows' | 'columns';
/** Pixels between steps along a track, and between the two tracks. */
const spacing: Record<Orientation, { step: number; track: number }> = {
  rows: { step: 260, track: 200 },
  columns: { step: 130, track: 190 },
};

function positionOf(step: FlowStep, orientation: Orientation): { x: number; y: number } {
  const { step: along, track } = grid[step];
  const gap = spacing[orientation];
  return orientation === 'rows' ? { x: along * gap.step, y: track * gap.track } : { x: track * gap.track, y: along * gap.step };
}

// The row layout needs about 1,190 px × 1.2 (fitView's padding) × 0.5 (React Flow's least zoom) ≈ 720 px of frame,
// which a window narrower than about 800 px (the page's and the card's padding) does not give it.
const narrowQuery = '(max-width: 799px)';
function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(narrowQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const isNarrow = () => window.matchMedia(narrowQuery).matches;
const sides = [
  ['left', Position.Left],
  ['right', Position.Right],
  ['top', Position.Top],
  ['bottom', Position.Bottom],
] as const;
type Side = (typeof sides)[number][0];
/** A side of the row layout, turned with the diagram: what left by the right leaves by the bottom in columns. */
const turned: Record<Side, Side> = { right: 'bottom', left: 'top', bottom: 'right', top: 'left' };

/** Which side each edge leaves and enters by: along the rows, down from choice to message, up from update. */
function sidesOf(edge: FlowEdge, orientation: Orientation): { from: Side; to: Side } {
  const inRows: { from: Side; to: Side } =
    edge.from === 'choice'
      ? { from: 'bottom', to: 'top' }
      : edge.from === 'update'
        ? { from: 'top', to: 'bottom' }
        : grid[edge.from].track === 0
          ? { from: 'right', to: 'left' }
          : { from: 'left', to: 'right' };
  return orientation === 'rows' ? inRows : { from: turned[inRows.from], to: turned[inRows.to] };
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
  // The server renders rows; a phone turns them into columns once it hydrates.
  const orientation: Orientation = useSyncExternalStore(subscribeToWidth, isNarrow, () => false) ? 'columns' : 'rows';
  const nodes: StepNode[] = (Object.keys(grid) as FlowStep[]).map((step) => {
    const note = props.notes[step] ?? null;
    return {
      id: step,
      type: 'step',
      position: positionOf(step, orientation),
      data: { label: flowStepLabels[step], note },
      ariaLabel: note === null ? flowStepLabels[step] : `${flowStepLabels[step]}: ${note}`,
    };
  });
  const edges: Edge[] = props.edges.map((edge) => {
    const { from, to } = sidesOf(edge, orientation);
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
      className={`${orientation === 'rows' ? 'h-[420px]' : 'h-[560px]'} w-full rounded-xl border border-separator bg-white text-black ${styles.diagram}`}
      data-testid="message-flow-diagram"
      data-orientation={orientation}
    >
      <ReactFlow
        // A new layout is fitted to the view afresh.
        key={orientation}
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
