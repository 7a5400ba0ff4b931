'use client';

import { type Edge, MarkerType, type Node, Position, ReactFlow } from '@xyflow/react';
// React Flow's own styles (node boxes, edge paths, labels); the CSP allows inline styles, which it also sets.
import '@xyflow/react/dist/style.css';
import { type FlowEdge, type FlowStep, flowStepLabels } from '../schemas';

/**
 * The pipeline as a diagram: the steps in a U (decision on the top row, what follows it back along the bottom
 * row), each edge labelled with what passed along it. Read-only: nothing is dragged, connected or deleted.
 * Every node and edge takes focus with Tab and carries its count in its label, and the table beside it
 * holds the same figures for anyone who cannot use the canvas.
 */
const layout: Record<FlowStep, { x: number; y: number; row: 'top' | 'bottom' }> = {
  'patient-data': { x: 0, y: 0, row: 'top' },
  context: { x: 230, y: 0, row: 'top' },
  posterior: { x: 460, y: 0, row: 'top' },
  probabilities: { x: 690, y: 0, row: 'top' },
  choice: { x: 920, y: 0, row: 'top' },
  message: { x: 920, y: 200, row: 'bottom' },
  reply: { x: 690, y: 200, row: 'bottom' },
  reward: { x: 460, y: 200, row: 'bottom' },
  update: { x: 230, y: 200, row: 'bottom' },
};

const ariaLabels = {
  'node.a11yDescription.default': 'A step of the pipeline. Press Tab to go to the next step or edge.',
  'edge.a11yDescription.default': 'What passed from one step to the next in the period.',
};

export function MessageFlowDiagram(props: { edges: FlowEdge[]; notes: Partial<Record<FlowStep, string>>; period: string }) {
  const nodes: Node[] = (Object.keys(layout) as FlowStep[]).map((step) => {
    const { x, y, row } = layout[step];
    const note = props.notes[step];
    return {
      id: step,
      position: { x, y },
      data: {
        label: (
          <span className="flex flex-col gap-0.5">
            <span className="font-semibold">{flowStepLabels[step]}</span>
            {note === undefined ? null : <span className="text-xs">{note}</span>}
          </span>
        ),
      },
      ariaLabel: note === undefined ? flowStepLabels[step] : `${flowStepLabels[step]}: ${note}`,
      sourcePosition: step === 'choice' ? Position.Bottom : row === 'top' ? Position.Right : Position.Left,
      targetPosition: step === 'message' ? Position.Top : row === 'top' ? Position.Left : Position.Right,
      // The loop back to the posterior enters it from below.
      ...(step === 'update' ? { sourcePosition: Position.Top } : {}),
    };
  });
  const edges: Edge[] = props.edges.map((edge) => ({
    id: edge.id,
    source: edge.from,
    target: edge.to,
    label: `${edge.count.display} ${edge.what}`,
    ariaLabel: `${flowStepLabels[edge.from]} to ${flowStepLabels[edge.to]}: ${edge.count.display} ${edge.what}, ${props.period}`,
    type: 'smoothstep',
    markerEnd: { type: MarkerType.ArrowClosed },
    labelBgPadding: [4, 2] as [number, number],
    labelStyle: { fontSize: 11 },
  }));
  return (
    <div className="h-[440px] w-full rounded-xl border border-separator bg-white text-black" data-testid="message-flow-diagram">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        fitView
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
