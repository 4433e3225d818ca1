"""Logistic regression by Newton's method, for the benchmarks that fit a bot's model on
games (``saboteur_roles``, ``saboteur_leaf``, ``dwarf_race``): a few thousand rows of a
dozen features, small enough for a hand-written solver (no numerical library needed)."""
from __future__ import annotations

import math


def chance(w: list[float], x) -> float:
    """The model's probability for the row ``x`` (the logit clamped to +-30)."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))))


def newton(rows, ridge: list[float], steps: int, tol: float = 0.0) -> list[float]:
    """Weights for ``rows`` of (features, 0/1 outcome), ``ridge[i]`` penalising weight i (0 for
    an intercept), after ``steps`` Newton steps or once no step moves a weight by ``tol``.
    Zero features are skipped (one-hot columns cost nothing)."""
    dim = len(ridge)
    w = [0.0] * dim
    for _ in range(steps):
        grad = [r * v for r, v in zip(ridge, w)]
        hess = [[ridge[i] if i == j else 0.0 for j in range(dim)] for i in range(dim)]
        for x, y in rows:
            p = chance(w, x)
            for i in range(dim):
                if x[i]:
                    grad[i] += (p - y) * x[i]
                    for j in range(dim):
                        if x[j]:
                            hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < tol:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]
