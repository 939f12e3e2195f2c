"""Packaging glue that pyproject.toml cannot express.

The top-level `models/` and `sounds/` folders are installed as the data packages
`beattrainer.models` and `beattrainer.sounds`, so a regular (non-editable)
install finds them too.
"""
from setuptools import find_packages, setup

DATA_DIRS = {"beattrainer.models": "models", "beattrainer.sounds": "sounds"}

setup(
    packages=find_packages(include=["beattrainer", "beattrainer.*"]) + list(DATA_DIRS),
    package_dir=DATA_DIRS,
    package_data={
        "beattrainer": ["**/*.toml", "**/*.json"],
        **{name: ["**/*"] for name in DATA_DIRS},
    },
    exclude_package_data={name: ["**/__pycache__/*", "**/*.pyc"] for name in DATA_DIRS},
)
