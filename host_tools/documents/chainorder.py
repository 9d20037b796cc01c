"""The order of the LED chain: the length of the data line through the pixels in a given
order from the Pico, and a shorter order to suggest (nearest neighbour, then 2-opt and
or-opt)."""

import math


def dist(p, q):
    return math.hypot(p[0] - q[0], p[1] - q[1])


def path_length(start, points, order):
    """Wire length in mm: start -> points[order[0]] -> points[order[1]] -> ..."""
    total = 0.0
    prev = start
    for i in order:
        total += dist(prev, points[i])
        prev = points[i]
    return total


def _nearest_neighbour(start, points):
    left = list(range(len(points)))
    order = []
    here = start
    while left:
        best = min(left, key=lambda i: (dist(here, points[i]), i))
        left.remove(best)
        order.append(best)
        here = points[best]
    return order


def _two_opt(start, points, order):
    """Reverse stretches of an open path with a fixed start while that shortens it."""
    n = len(order)
    eps = 1e-9
    improved = True
    while improved:
        improved = False
        for i in range(n - 1):
            before = start if i == 0 else points[order[i - 1]]
            for j in range(i + 1, n):
                a, b = points[order[i]], points[order[j]]
                old = dist(before, a)
                new = dist(before, b)
                if j + 1 < n:
                    after = points[order[j + 1]]
                    old += dist(b, after)
                    new += dist(a, after)
                if new < old - eps:
                    order[i:j + 1] = order[i:j + 1][::-1]
                    improved = True
    return order


def _or_opt(start, points, order):
    """Move runs of 1-3 pixels (either way round) elsewhere in the path while that helps."""
    eps = 1e-9
    improved = True
    while improved:
        improved = False
        base = path_length(start, points, order)
        for run in (1, 2, 3):
            for i in range(len(order) - run + 1):
                seg = order[i:i + run]
                rest = order[:i] + order[i + run:]
                for j in range(len(rest) + 1):
                    if j == i:
                        continue
                    for piece in (seg, seg[::-1]):
                        cand = rest[:j] + piece + rest[j:]
                        length = path_length(start, points, cand)
                        if length < base - eps:
                            order, base, improved = cand, length, True
                            break
                    if improved:
                        break
                if improved:
                    break
            if improved:
                break
    return order


def suggest_chain(start, points):
    """A short open path through every pixel from `start`: nearest neighbour and the
    current index order, each improved with 2-opt and or-opt; the shorter one (so never
    longer than the current order). Deterministic: ties go to the lower index."""
    best = None
    for seed in (_nearest_neighbour(start, points), list(range(len(points)))):
        order = seed
        while True:
            before = path_length(start, points, order)
            order = _or_opt(start, points, _two_opt(start, points, order))
            if path_length(start, points, order) >= before - 1e-9:
                break
        if best is None or path_length(start, points, order) < path_length(start, points,
                                                                           best) - 1e-9:
            best = order
    return best
