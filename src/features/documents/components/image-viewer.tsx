import { ActionIcon, Box, Group, Text, Tooltip } from '@mantine/core';
import { IconRotateClockwise, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useState } from 'react';

const MIN_ZOOM = 0.25;
const MAX_ZOOM = 4;
const ZOOM_STEP = 1.25;

export function ImageViewer({ src, alt }: { src: string; alt: string }) {
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const zoomBy = (factor: number) =>
    setZoom((current) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, current * factor)));

  return (
    <Box>
      <Group gap="xs" mb="xs" role="toolbar" aria-label="Image controls">
        <Tooltip label="Zoom out">
          <ActionIcon
            variant="default"
            aria-label="Zoom out"
            onClick={() => zoomBy(1 / ZOOM_STEP)}
            disabled={zoom <= MIN_ZOOM}
          >
            <IconZoomOut size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Text size="sm" w={48} ta="center" aria-live="polite">
          {Math.round(zoom * 100)}%
        </Text>
        <Tooltip label="Zoom in">
          <ActionIcon
            variant="default"
            aria-label="Zoom in"
            onClick={() => zoomBy(ZOOM_STEP)}
            disabled={zoom >= MAX_ZOOM}
          >
            <IconZoomIn size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Reset zoom and rotation">
          <ActionIcon
            variant="default"
            aria-label="Reset zoom"
            onClick={() => {
              setZoom(1);
              setRotation(0);
            }}
          >
            <IconZoomReset size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Rotate 90° clockwise">
          <ActionIcon
            variant="default"
            aria-label="Rotate"
            onClick={() => setRotation((current) => (current + 90) % 360)}
          >
            <IconRotateClockwise size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Box
        h="62vh"
        bg="gray.1"
        style={{ overflow: 'auto', display: 'grid', placeItems: 'center', borderRadius: 8 }}
      >
        <img
          src={src}
          alt={alt}
          data-zoom={zoom}
          data-rotation={rotation}
          style={{
            width: `${zoom * 100}%`,
            maxWidth: 'none',
            height: 'auto',
            transform: `rotate(${rotation}deg)`,
            transition: 'transform 120ms ease, width 120ms ease',
          }}
        />
      </Box>
    </Box>
  );
}
