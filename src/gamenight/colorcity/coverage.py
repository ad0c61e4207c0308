"""Which city squares a cube covers: the one function the rules use (decisions D3, D5).

A square is covered when the cube's footprint — the outline of the cube seen from above,
the convex hull of its eight corners projected on the board — reaches at least
``table.coverage_margin_mm`` inside it: it intersects the square shrunk by that margin on
every side (touching the shrunk square's edge counts, so exactly 1 mm counts). A cube that
fell off the table covers nothing.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import product

import numpy as np
import numpy.typing as npt
import shapely

from gamenight.colorcity.physics import Pose
from gamenight.colorcity.table import Table


@lru_cache(maxsize=8)
def _shrunk_squares(table: Table) -> npt.NDArray[np.object_]:
    m = table.coverage_margin_mm
    bounds = np.array([table.square_bounds(sq) for sq in range(table.num_squares)])
    return np.asarray(
        shapely.box(bounds[:, 0] + m, bounds[:, 1] + m, bounds[:, 2] - m, bounds[:, 3] - m)
    )


def corners(table: Table, pose: Pose) -> list[tuple[float, float, float]]:
    """The cube's eight corners in board mm."""
    h = table.cube_mm / 2
    w, x, y, z = pose.qw, pose.qx, pose.qy, pose.qz
    rot = (
        (1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
        (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
        (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)),
    )
    out = []
    for sx, sy, sz in product((-h, h), repeat=3):
        out.append(
            (
                pose.x + rot[0][0] * sx + rot[0][1] * sy + rot[0][2] * sz,
                pose.y + rot[1][0] * sx + rot[1][1] * sy + rot[1][2] * sz,
                pose.z + rot[2][0] * sx + rot[2][1] * sy + rot[2][2] * sz,
            )
        )
    return out


def footprint(table: Table, pose: Pose) -> shapely.Polygon:
    """The outline of the cube seen from above."""
    points = [(cx, cy) for cx, cy, _ in corners(table, pose)]
    return shapely.convex_hull(shapely.MultiPoint(points))


def footprint_outline(table: Table, pose: Pose) -> list[tuple[float, float]]:
    """The footprint's corners (for drawing), counter-clockwise."""
    hull = footprint(table, pose)
    coords = list(shapely.get_coordinates(shapely.get_exterior_ring(hull)))
    return [(float(a), float(b)) for a, b in coords[:-1]]


def covered_squares(table: Table, pose: Pose) -> tuple[int, ...]:
    """The squares the cube at ``pose`` covers, in increasing order."""
    if not pose.on_table:
        return ()
    reach = table.cube_mm * math.sqrt(3) / 2
    half = table.city_half
    if abs(pose.x) > half + reach or abs(pose.y) > half + reach:
        return ()  # cheap rejection: nowhere near the city
    hits = shapely.intersects(footprint(table, pose), _shrunk_squares(table))
    return tuple(int(i) for i in np.flatnonzero(hits))
