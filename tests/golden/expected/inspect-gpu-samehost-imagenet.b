{
  "bytes_read": 430062636,
  "bytes_written": 377497958,
  "command": [
    "env",
    "-u",
    "LD_LIBRARY_PATH",
    "python3",
    "tests/pytorch/gpu_imagenet.py",
    "/tmp/dlgen-replay/imagenet",
    "--device",
    "cuda",
    "-a",
    "resnet50",
    "-j",
    "8",
    "-b",
    "64",
    "--epochs",
    "2",
    "--checkpoint-dir",
    "/tmp/dlgen-replay/checkpoints/img.again",
    "--log",
    "/root/out/logs/imagenet.again.log"
  ],
  "complete": true,
  "cuda": {
    "dtoh": 976,
    "dtoh_bytes": 377078936,
    "errors": 0,
    "htod": 464,
    "htod_bytes": 2868945128,
    "launches": 54077,
    "sync_wait_s": 0.36477144800000044,
    "syncs": 2048
  },
  "dirs": [
    {
      "bytes_read": 188696526,
      "bytes_written": 377393052,
      "dir": "/tmp/dlgen-replay/checkpoints/img.again",
      "files": 2,
      "reads": 2,
      "writes": 334
    },
    {
      "bytes_read": 9703402,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000010",
      "files": 128,
      "reads": 774,
      "writes": 0
    },
    {
      "bytes_read": 9583236,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000009",
      "files": 128,
      "reads": 776,
      "writes": 0
    },
    {
      "bytes_read": 9565400,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000006",
      "files": 128,
      "reads": 774,
      "writes": 0
    },
    {
      "bytes_read": 9565056,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000004",
      "files": 128,
      "reads": 778,
      "writes": 0
    },
    {
      "bytes_read": 9479154,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000005",
      "files": 128,
      "reads": 780,
      "writes": 0
    },
    {
      "bytes_read": 9325638,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000015",
      "files": 128,
      "reads": 770,
      "writes": 0
    },
    {
      "bytes_read": 9256572,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000003",
      "files": 128,
      "reads": 772,
      "writes": 0
    },
    {
      "bytes_read": 9240398,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000002",
      "files": 128,
      "reads": 772,
      "writes": 0
    },
    {
      "bytes_read": 9239450,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000008",
      "files": 128,
      "reads": 772,
      "writes": 0
    },
    {
      "bytes_read": 9163826,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000014",
      "files": 128,
      "reads": 770,
      "writes": 0
    },
    {
      "bytes_read": 9157958,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000001",
      "files": 128,
      "reads": 774,
      "writes": 0
    },
    {
      "bytes_read": 9090360,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000007",
      "files": 128,
      "reads": 770,
      "writes": 0
    },
    {
      "bytes_read": 9061304,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000000",
      "files": 128,
      "reads": 772,
      "writes": 0
    },
    {
      "bytes_read": 8995350,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000013",
      "files": 128,
      "reads": 772,
      "writes": 0
    },
    {
      "bytes_read": 8846150,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000011",
      "files": 128,
      "reads": 776,
      "writes": 0
    },
    {
      "bytes_read": 8718320,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train/n00000012",
      "files": 128,
      "reads": 776,
      "writes": 0
    },
    {
      "bytes_read": 6411180,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/PIL/__pycache__",
      "files": 32,
      "reads": 524,
      "writes": 0
    },
    {
      "bytes_read": 5268933,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo",
      "files": 53,
      "reads": 584,
      "writes": 0
    },
    {
      "bytes_read": 2735022,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data",
      "files": 12,
      "reads": 398,
      "writes": 0
    },
    {
      "bytes_read": 2704478,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/__pycache__",
      "files": 83,
      "reads": 166,
      "writes": 0
    },
    {
      "bytes_read": 2512680,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch",
      "files": 100,
      "reads": 223,
      "writes": 0
    },
    {
      "bytes_read": 2342025,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/9/2",
      "files": 1,
      "reads": 75,
      "writes": 0
    },
    {
      "bytes_read": 1572690,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/variables",
      "files": 26,
      "reads": 50,
      "writes": 0
    },
    {
      "bytes_read": 1445085,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/6/3",
      "files": 1,
      "reads": 75,
      "writes": 0
    },
    {
      "bytes_read": 1273038,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000003",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1254008,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000005",
      "files": 16,
      "reads": 98,
      "writes": 0
    },
    {
      "bytes_read": 1253876,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys",
      "files": 44,
      "reads": 74,
      "writes": 0
    },
    {
      "bytes_read": 1250748,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000000",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1221526,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000006",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1219690,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000004",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1207366,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000007",
      "files": 16,
      "reads": 98,
      "writes": 0
    },
    {
      "bytes_read": 1201854,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000013",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1179678,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000002",
      "files": 16,
      "reads": 98,
      "writes": 0
    },
    {
      "bytes_read": 1162766,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000011",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1161124,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000012",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1140734,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000009",
      "files": 16,
      "reads": 98,
      "writes": 0
    },
    {
      "bytes_read": 1119224,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/core",
      "files": 38,
      "reads": 70,
      "writes": 0
    },
    {
      "bytes_read": 1115232,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000001",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1105832,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000010",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1099810,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000008",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1093729,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/6/4",
      "files": 1,
      "reads": 35,
      "writes": 0
    },
    {
      "bytes_read": 1080648,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000015",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 1074060,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val/n00000014",
      "files": 16,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 911666,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/modules",
      "files": 29,
      "reads": 63,
      "writes": 0
    },
    {
      "bytes_read": 866881,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/_core",
      "files": 30,
      "reads": 53,
      "writes": 0
    },
    {
      "bytes_read": 838048,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/multiprocessing",
      "files": 15,
      "reads": 256,
      "writes": 0
    },
    {
      "bytes_read": 818318,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/lib",
      "files": 32,
      "reads": 58,
      "writes": 0
    },
    {
      "bytes_read": 675493,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/9/5",
      "files": 1,
      "reads": 35,
      "writes": 0
    },
    {
      "bytes_read": 648560,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils",
      "files": 39,
      "reads": 79,
      "writes": 0
    },
    {
      "bytes_read": 602364,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/3/f",
      "files": 1,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 594625,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/fsdp",
      "files": 23,
      "reads": 38,
      "writes": 0
    },
    {
      "bytes_read": 589283,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_higher_order_ops",
      "files": 32,
      "reads": 58,
      "writes": 0
    },
    {
      "bytes_read": 580222,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/experimental",
      "files": 13,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 575592,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn",
      "files": 18,
      "reads": 48,
      "writes": 0
    },
    {
      "bytes_read": 567169,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/0/7",
      "files": 2,
      "reads": 25,
      "writes": 0
    },
    {
      "bytes_read": 552472,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/printing",
      "files": 31,
      "reads": 54,
      "writes": 0
    },
    {
      "bytes_read": 549990,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/d/6",
      "files": 1,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 549372,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/7/5",
      "files": 1,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 549192,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/7/0",
      "files": 1,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 538313,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed",
      "files": 29,
      "reads": 45,
      "writes": 0
    },
    {
      "bytes_read": 537136,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/asyncio/__pycache__",
      "files": 29,
      "reads": 58,
      "writes": 0
    },
    {
      "bytes_read": 532124,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/_internal/torchscript_exporter",
      "files": 14,
      "reads": 21,
      "writes": 0
    },
    {
      "bytes_read": 525123,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/datasets/__pycache__",
      "files": 50,
      "reads": 100,
      "writes": 0
    },
    {
      "bytes_read": 521909,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor",
      "files": 15,
      "reads": 36,
      "writes": 0
    },
    {
      "bytes_read": 497538,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/_utils",
      "files": 9,
      "reads": 140,
      "writes": 0
    },
    {
      "bytes_read": 486758,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath",
      "files": 19,
      "reads": 24,
      "writes": 0
    },
    {
      "bytes_read": 483635,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/optim",
      "files": 23,
      "reads": 40,
      "writes": 0
    },
    {
      "bytes_read": 480347,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/solvers",
      "files": 16,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 470722,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/__pycache__",
      "files": 22,
      "reads": 44,
      "writes": 0
    },
    {
      "bytes_read": 464907,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages",
      "files": 24,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 448907,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/matrices",
      "files": 22,
      "reads": 36,
      "writes": 0
    },
    {
      "bytes_read": 444896,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/_aot_autograd",
      "files": 14,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 440743,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/solvers/ode",
      "files": 12,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 430913,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/simplify",
      "files": 17,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 425867,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/tensor",
      "files": 19,
      "reads": 32,
      "writes": 0
    },
    {
      "bytes_read": 396819,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/special",
      "files": 18,
      "reads": 30,
      "writes": 0
    },
    {
      "bytes_read": 387996,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/elementary",
      "files": 12,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 386607,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/autograd",
      "files": 15,
      "reads": 24,
      "writes": 0
    },
    {
      "bytes_read": 369418,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx",
      "files": 21,
      "reads": 32,
      "writes": 0
    },
    {
      "bytes_read": 366674,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/c/3",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 366670,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/5/2",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 366262,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/1/4",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 366262,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/9/1",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 366252,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/8/0",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 365554,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/b/c",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 359972,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_subclasses",
      "files": 10,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 351550,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/detection/__pycache__",
      "files": 16,
      "reads": 32,
      "writes": 0
    },
    {
      "bytes_read": 344007,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cuda",
      "files": 21,
      "reads": 44,
      "writes": 0
    },
    {
      "bytes_read": 342867,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributions",
      "files": 51,
      "reads": 96,
      "writes": 0
    },
    {
      "bytes_read": 342297,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/functions",
      "files": 17,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 339756,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/geometry",
      "files": 14,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 338067,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/8/d",
      "files": 1,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 337959,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/7/b",
      "files": 1,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 337959,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/b/a",
      "files": 1,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 318867,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/integrals",
      "files": 12,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 309629,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language",
      "files": 10,
      "reads": 38,
      "writes": 0
    },
    {
      "bytes_read": 309435,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/jit",
      "files": 21,
      "reads": 36,
      "writes": 0
    },
    {
      "bytes_read": 307174,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/transforms/__pycache__",
      "files": 7,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 301192,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/4/4",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 301178,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/1/8",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 294383,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/tensor/_ops",
      "files": 17,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 289727,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/matrices",
      "files": 17,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 284024,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/unittest/__pycache__",
      "files": 10,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 277738,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/export",
      "files": 13,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 275310,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/libmp",
      "files": 12,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 270263,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/ntheory",
      "files": 16,
      "reads": 26,
      "writes": 0
    },
    {
      "bytes_read": 268709,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/passes",
      "files": 20,
      "reads": 30,
      "writes": 0
    },
    {
      "bytes_read": 266685,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/fsdp/_fully_shard",
      "files": 12,
      "reads": 31,
      "writes": 0
    },
    {
      "bytes_read": 260401,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/quantization",
      "files": 16,
      "reads": 26,
      "writes": 0
    },
    {
      "bytes_read": 250242,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs",
      "files": 9,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 248870,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch",
      "files": 17,
      "reads": 30,
      "writes": 0
    },
    {
      "bytes_read": 236404,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/utilities",
      "files": 15,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 231752,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/calculus",
      "files": 13,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 225378,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/a/f",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 225378,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/c/c",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 225306,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/6/8",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 225306,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/a/1",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 225306,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/e/a",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 221466,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/2/8",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 215815,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_decomp",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 213454,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/email/__pycache__",
      "files": 15,
      "reads": 30,
      "writes": 0
    },
    {
      "bytes_read": 208290,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/0/8",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 208290,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/a/0",
      "files": 1,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 206843,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/numberfields",
      "files": 13,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 203473,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_library",
      "files": 15,
      "reads": 31,
      "writes": 0
    },
    {
      "bytes_read": 196551,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_numpy",
      "files": 20,
      "reads": 34,
      "writes": 0
    },
    {
      "bytes_read": 191708,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/multiprocessing/__pycache__",
      "files": 12,
      "reads": 24,
      "writes": 0
    },
    {
      "bytes_read": 189681,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_prims",
      "files": 6,
      "reads": 19,
      "writes": 0
    },
    {
      "bytes_read": 189058,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/e/e",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 185207,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/series",
      "files": 15,
      "reads": 24,
      "writes": 0
    },
    {
      "bytes_read": 183133,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/5/3",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 174172,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/urllib/__pycache__",
      "files": 5,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 173678,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/domains",
      "files": 31,
      "reads": 56,
      "writes": 0
    },
    {
      "bytes_read": 173376,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache",
      "files": 1,
      "reads": 126,
      "writes": 0
    },
    {
      "bytes_read": 84736,
      "bytes_written": 84736,
      "dir": ".",
      "files": 392,
      "reads": 2389,
      "writes": 1201
    },
    {
      "bytes_read": 168755,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting",
      "files": 13,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 167290,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/utils",
      "files": 17,
      "reads": 26,
      "writes": 0
    },
    {
      "bytes_read": 166859,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/matrices/expressions",
      "files": 25,
      "reads": 44,
      "writes": 0
    },
    {
      "bytes_read": 160920,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/matrices",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 159851,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel",
      "files": 11,
      "reads": 16,
      "writes": 0
    },
    {
      "bytes_read": 158284,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/ops/__pycache__",
      "files": 19,
      "reads": 38,
      "writes": 0
    },
    {
      "bytes_read": 156835,
      "bytes_written": 0,
      "dir": "/proc/1005",
      "files": 4,
      "reads": 168,
      "writes": 0
    },
    {
      "bytes_read": 154743,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/_sympy",
      "files": 12,
      "reads": 17,
      "writes": 0
    },
    {
      "bytes_read": 154652,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opt_einsum/__pycache__",
      "files": 10,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 150701,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/0/5",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 150699,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/9/9",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 150694,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/4/0",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 150694,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/b/9",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 150590,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/sets",
      "files": 11,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 150589,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/f/f",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 150584,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/8/e",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 150584,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/c/a",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 148638,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/printing/pretty",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 144607,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchgen",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 140325,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/combinatorial",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 127287,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/package",
      "files": 18,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 124523,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/html/__pycache__",
      "files": 3,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 124411,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/logic",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 123980,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/profiler",
      "files": 8,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 122610,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/solvers/diophantine",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 120748,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/modules",
      "files": 14,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 119777,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_local_tensor",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 118101,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/masked",
      "files": 7,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 117625,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/linalg",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 116471,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/linalg",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 113283,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/concrete",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 113000,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tqdm/__pycache__",
      "files": 8,
      "reads": 16,
      "writes": 0
    },
    {
      "bytes_read": 112653,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/9/c",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 112235,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/7/6",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 110579,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/xpu",
      "files": 9,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 106294,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_export",
      "files": 8,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 104229,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/1/6",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104229,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/3/3",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104229,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/3/d",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104229,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/9/7",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104145,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/2/f",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104145,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/5/0",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104145,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/c/8",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 104145,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/e/6",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 102061,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharded_tensor",
      "files": 10,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 101962,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tabulate/__pycache__",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 100567,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/video/__pycache__",
      "files": 5,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 100058,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/zipfile/__pycache__",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 99875,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/rpc",
      "files": 12,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 99521,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/_internal/exporter",
      "files": 10,
      "reads": 13,
      "writes": 0
    },
    {
      "bytes_read": 97456,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/xml/etree/__pycache__",
      "files": 3,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 95463,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/logging/__pycache__",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 93768,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_prims_common",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 93573,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/re/__pycache__",
      "files": 5,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 91063,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/calculus",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 89768,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/agca",
      "files": 8,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 88401,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/quantization/__pycache__",
      "files": 9,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 85379,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/ops",
      "files": 7,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 83515,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/runtime",
      "files": 12,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 82545,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/assumptions",
      "files": 10,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 80997,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/testing",
      "files": 8,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 78393,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/fft",
      "files": 7,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 78317,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/tensor/parallel",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 77907,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/sparse",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 77244,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/dynamic/modules",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 76930,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/iter",
      "files": 15,
      "reads": 24,
      "writes": 0
    },
    {
      "bytes_read": 73338,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/collections/__pycache__",
      "files": 2,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 71138,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/tensor/array",
      "files": 10,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 69186,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/reference/modules",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 67884,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/http/__pycache__",
      "files": 2,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 67841,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_logging",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 67131,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/importlib/metadata/__pycache__",
      "files": 7,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 65842,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy",
      "files": 21,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 64197,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/extra/cuda",
      "files": 7,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 63424,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/__pycache__",
      "files": 7,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 59551,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/compiler",
      "files": 6,
      "reads": 9,
      "writes": 0
    },
    {
      "bytes_read": 57444,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tqdm-4.70.1.dist-info",
      "files": 2,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 56140,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch",
      "files": 2,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 55523,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/amd",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 55337,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fft",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 54028,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/amp",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 53676,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes",
      "files": 12,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 53140,
      "bytes_written": 0,
      "dir": "/proc",
      "files": 2,
      "reads": 51,
      "writes": 0
    },
    {
      "bytes_read": 51785,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/ctypes/__pycache__",
      "files": 4,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 49214,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 48852,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantizable/modules",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 47607,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/polyfills",
      "files": 17,
      "reads": 28,
      "writes": 0
    },
    {
      "bytes_read": 47545,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/algebras",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 45864,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/json/__pycache__",
      "files": 4,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 45831,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/external",
      "files": 8,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 44987,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/tensor",
      "files": 8,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 44974,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton",
      "files": 14,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 44374,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/mtia",
      "files": 7,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 44132,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/utils/_expanded_weights",
      "files": 13,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 44049,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/importlib/resources/__pycache__",
      "files": 7,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 43957,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/parsing",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 43762,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/optical_flow/__pycache__",
      "files": 3,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 43639,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/concurrent/futures/__pycache__",
      "files": 3,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 43103,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 42664,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/nn/functional",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 42662,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharding_spec/chunk_sharding_spec_ops",
      "files": 7,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 41497,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/qat/modules",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 41453,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/colorama/__pycache__",
      "files": 6,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 40871,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tabulate-0.10.0.dist-info",
      "files": 2,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 40331,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/interactive",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 40301,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/multiprocessing",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 39911,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_custom_op",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 38946,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/segmentation/__pycache__",
      "files": 5,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 33243,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/intervalmath",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 32471,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_pycute",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 32035,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/special",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 31825,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/api",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 31077,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/matrixlib",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 30794,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/discrete",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 30747,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/masked/maskedtensor",
      "files": 10,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 30327,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized",
      "files": 8,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 29445,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy",
      "files": 31,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 29283,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nested/_internal",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 29058,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/linalg",
      "files": 4,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 27930,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharding_spec",
      "files": 8,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 27313,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/io/__pycache__",
      "files": 2,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 26574,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opt_einsum/backends/__pycache__",
      "files": 8,
      "reads": 16,
      "writes": 0
    },
    {
      "bytes_read": 25971,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/utils",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 25721,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/_typing",
      "files": 13,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 25596,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/modules",
      "files": 8,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 25095,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_composable",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 23605,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/dataframe",
      "files": 8,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 23340,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/sets/handlers",
      "files": 7,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 23103,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/signal/windows",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 22564,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/compiler",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 22307,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nested",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 22290,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/accelerator",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 21968,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharded_tensor/_ops",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 21921,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/modules",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 21632,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/PIL",
      "files": 38,
      "reads": 26,
      "writes": 0
    },
    {
      "bytes_read": 21553,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cuda",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 20959,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/passes/utils",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 20643,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx",
      "files": 11,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 20370,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/zipfile/_path/__pycache__",
      "files": 2,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 20345,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/encodings/__pycache__",
      "files": 3,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 19960,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/multipledispatch",
      "files": 8,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 19770,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard",
      "files": 13,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 19420,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor/runtime",
      "files": 7,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 19344,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_strobelight",
      "files": 6,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 18611,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/extra/hip",
      "files": 6,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 18234,
      "bytes_written": 0,
      "dir": "/proc/driver/nvidia",
      "files": 1,
      "reads": 18,
      "writes": 0
    },
    {
      "bytes_read": 18163,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_vendor/packaging",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 17710,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/random",
      "files": 14,
      "reads": 13,
      "writes": 0
    },
    {
      "bytes_read": 17086,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/importlib/__pycache__",
      "files": 4,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 16812,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models",
      "files": 30,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 16448,
      "bytes_written": 0,
      "dir": "/usr/lib/x86_64-linux-gnu",
      "files": 29,
      "reads": 20,
      "writes": 0
    },
    {
      "bytes_read": 16444,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/strategies",
      "files": 11,
      "reads": 14,
      "writes": 0
    },
    {
      "bytes_read": 16031,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn",
      "files": 7,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 15897,
      "dir": "/root/out/logs",
      "files": 2,
      "reads": 0,
      "writes": 21
    },
    {
      "bytes_read": 15824,
      "bytes_written": 0,
      "dir": "/root/.nv/ComputeCache/a/2",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 15247,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/map",
      "files": 9,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 14911,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/backends",
      "files": 7,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 14519,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/futures",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 13722,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/assumptions/relation",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 13488,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/algorithms",
      "files": 7,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 12962,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/passes/infra",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 12710,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/backends/matplotlibbackend",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 12552,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/sparse/quantized",
      "files": 7,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 12502,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/modules",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 12480,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload",
      "files": 15,
      "reads": 15,
      "writes": 0
    },
    {
      "bytes_read": 12477,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cudnn",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 12324,
      "bytes_written": 0,
      "dir": "/etc/ssl",
      "files": 1,
      "reads": 5,
      "writes": 0
    },
    {
      "bytes_read": 12001,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/algorithms/_checkpoint",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 11522,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/mps",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 11242,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/_utils",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 10816,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib",
      "files": 30,
      "reads": 13,
      "writes": 0
    },
    {
      "bytes_read": 10549,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/quantization",
      "files": 14,
      "reads": 22,
      "writes": 0
    },
    {
      "bytes_read": 10440,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision",
      "files": 23,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 9984,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pillow.libs",
      "files": 15,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 8320,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/lib",
      "files": 13,
      "reads": 10,
      "writes": 0
    },
    {
      "bytes_read": 7747,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/algorithms/_comm_hooks",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 7518,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dispatch",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 7469,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor/analysis",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 7190,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends",
      "files": 8,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 7056,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/special",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 7013,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/sparse/quantized/dynamic",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 6865,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cpu",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 6755,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/_distutils_hack",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 6646,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/testing/_internal",
      "files": 6,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 6538,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/backends",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 6056,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/jit",
      "files": 6,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 5952,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/certifi",
      "files": 6,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 5856,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy.libs",
      "files": 6,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 5824,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision.libs",
      "files": 7,
      "reads": 7,
      "writes": 0
    },
    {
      "bytes_read": 5565,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions",
      "files": 7,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 5085,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/tools",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 5078,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cuda/amp",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 4992,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib",
      "files": 28,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 4898,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/setuptools-81.0.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 4388,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mkldnn",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 4271,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/strategies/branch",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 4240,
      "dir": "/dev/shm",
      "files": 401,
      "reads": 0,
      "writes": 272
    },
    {
      "bytes_read": 3883,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/package/analyze",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 3836,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/opt_einsum",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 3732,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/pygletplot",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 3649,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharding_plan",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 3586,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends",
      "files": 18,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 3574,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/__pycache__",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 3463,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/jit/templates",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 3388,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/utilities/mathml",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 3241,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cpu/amp",
      "files": 6,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 2800,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/scikit_build_core-1.1.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 2338,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/qat/modules",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 2336,
      "bytes_written": 0,
      "dir": "/etc/ssl/certs",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 2293,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/dynamic/modules",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 2204,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/markdown-3.11.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 2131,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mps",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 2101,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantized/modules",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1931,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/autograd",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1861,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/quantized",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1823,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mkl",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1757,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/modules",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 1687,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_awaits",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1664,
      "bytes_written": 0,
      "dir": "/usr/local/nvidia/lib64",
      "files": 2,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1382,
      "bytes_written": 0,
      "dir": "/etc",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 1329,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/serialization",
      "files": 5,
      "reads": 6,
      "writes": 0
    },
    {
      "bytes_read": 1285,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cusparselt",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1278,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/monitor",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1265,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/dynamic/modules",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 1213,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/_internal",
      "files": 7,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 1208,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/miopen",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 1150,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/testing/_internal/distributed",
      "files": 5,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 1080,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/modules",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 1047,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantized",
      "files": 7,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 961,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic",
      "files": 7,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 895,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/backends/textbackend",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 837,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/nnpack",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 834,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn",
      "files": 9,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 832,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparselt/lib",
      "files": 13,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 832,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib",
      "files": 13,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 832,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib",
      "files": 13,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 832,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/_C",
      "files": 7,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 728,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/modules",
      "files": 7,
      "reads": 8,
      "writes": 0
    },
    {
      "bytes_read": 718,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mha",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 707,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/xml/__pycache__",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 697,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic",
      "files": 7,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 678,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao",
      "files": 6,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 678,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/backcompat",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 656,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/func",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 655,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/extra",
      "files": 6,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 592,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/accelerate-1.15.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 494,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/dynamic/modules",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 472,
      "bytes_written": 0,
      "dir": "/proc/driver/nvidia/capabilities/mig",
      "files": 2,
      "reads": 12,
      "writes": 0
    },
    {
      "bytes_read": 440,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy-2.5.2.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 424,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/huggingface_hub-1.33.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 422,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch-2.11.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 365,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat",
      "files": 6,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 352,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton-3.6.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 336,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized",
      "files": 6,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 314,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/onnx-1.23.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 314,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytest_benchmark-5.2.3.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 314,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cpu",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 312,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pybind11-3.1.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 312,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tensorboard-2.21.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 310,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tifffile-2026.9.20.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 294,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/fonttools-4.66.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 290,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/coverage-7.16.2.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 284,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/reference",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 278,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cython-3.3.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 260,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/imageio-2.38.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 250,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pip-24.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 236,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized",
      "files": 6,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 226,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv",
      "files": 3,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 220,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/wheel-0.48.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 216,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/hypothesis-6.168.3.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 211,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/dynamic/modules",
      "files": 5,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 210,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/build-1.6.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 208,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/dynamic",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 207,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantizable/modules",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 202,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cmake-4.4.3.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 190,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytest-9.1.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 188,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/networkx-3.6.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 174,
      "bytes_written": 0,
      "dir": "/usr/share/zoneinfo/Etc",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 162,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/kleidiai",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 157,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/openmp",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 154,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/onnxruntime-1.30.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 144,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/xarray-2026.9.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 139,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/concurrent/__pycache__",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 138,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pandas-3.0.6.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 136,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytest_xdist-3.8.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 136,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/transformers-5.17.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 130,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/charset_normalizer-3.5.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 116,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/jinja2-3.1.6.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 116,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/markdown_it_py-4.2.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 114,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/typer-0.27.2.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 110,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sacrebleu-2.6.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 108,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/lightning-2.6.6.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 106,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pygments-2.21.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 104,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/meson-1.12.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 100,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/jax_cuda13_pjrt-0.11.2.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 96,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/jaxtyping-0.3.11.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 84,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/py_cpuinfo-9.0.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 84,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytest_cov-7.1.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 79,
      "bytes_written": 0,
      "dir": "/sys/devices/system/cpu",
      "files": 4,
      "reads": 21,
      "writes": 0
    },
    {
      "bytes_read": 78,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/anyio-4.15.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 78,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy-1.14.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 76,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/idna-3.19.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 74,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/httpx-0.28.1.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 74,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytest_mock-3.16.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 73,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/dynamic",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 72,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytest_timeout-2.5.0.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 68,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/annotated_doc-0.0.5.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 68,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/timm-1.0.29.dist-info",
      "files": 1,
      "reads": 4,
      "writes": 0
    },
    {
      "bytes_read": 59,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/qat",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 58,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantized/dynamic",
      "files": 4,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 57,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantizable",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 46,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/signal",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 37,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/qat",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 37,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/dynamic",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 37,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat",
      "files": 6,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 37,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/dynamic",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 37,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantizable",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 37,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/dynamic",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 27,
      "bytes_written": 0,
      "dir": "/sys/devices/system/memory",
      "files": 1,
      "reads": 3,
      "writes": 0
    },
    {
      "bytes_read": 24,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/nn",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 24,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/sparse",
      "files": 5,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 15,
      "dir": "/proc/1005/task/1028",
      "files": 1,
      "reads": 0,
      "writes": 1
    },
    {
      "bytes_read": 0,
      "bytes_written": 14,
      "dir": "/proc/1005/task/1032",
      "files": 1,
      "reads": 0,
      "writes": 1
    },
    {
      "bytes_read": 10,
      "bytes_written": 0,
      "dir": "/proc/sys/vm",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 10,
      "bytes_written": 0,
      "dir": "/sys/devices/system/node/node0",
      "files": 1,
      "reads": 2,
      "writes": 0
    },
    {
      "bytes_read": 8,
      "bytes_written": 0,
      "dir": "/dev",
      "files": 6,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 4,
      "dir": "/tmp",
      "files": 26,
      "reads": 0,
      "writes": 1
    },
    {
      "bytes_read": 3,
      "bytes_written": 0,
      "dir": "/sys/devices/pci0000:00/0000:00:06.0",
      "files": 1,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/dev/char",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/dev/nvidia-caps",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/etc/nvidia",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/etc/nvidia/nvidia-application-profiles-rc.d",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/etc/python3.12",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/x86_64-linux-gnu",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/bin",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/_distutils_hack/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/absl_py-2.5.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/aiofiles-25.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/aiohappyeyeballs-2.7.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/aiohttp-3.14.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/aiosignal-1.4.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/attrs-26.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/botorch-0.18.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/certifi-2026.7.22.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/certifi/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/chex-0.1.92.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/click-8.5.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cloudpickle-3.1.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/colorama",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/colorama-0.4.6.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/contourpy-1.4.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_bindings-13.3.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_core-1.2.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_pathfinder-1.8.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cuda_toolkit-13.0.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cupy_cuda13x-14.2.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/cycler-0.12.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/diffrax-0.7.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/e3nn-0.6.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/einops-0.8.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/equinox-0.13.8.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/etils-1.14.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/execnet-2.1.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/filelock-3.32.5.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/flatbuffers-25.12.19.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/flax-0.12.10.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/formulaic-1.2.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/frozenlist-1.8.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/fsspec-2026.7.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/gpytorch-1.15.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/grpcio-1.84.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/h11-0.16.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/h5py-3.16.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/hf_xet-1.6.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/httpcore-1.0.9.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/humanize-4.16.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/hypothesis",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/iniconfig-2.3.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/interface_meta-2.0.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/jax-0.11.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/jax_cuda13_plugin-0.11.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/jaxlib-0.11.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/joblib-1.6.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/kiwisolver-1.5.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/lazy_loader-0.6.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/lightning_utilities-0.15.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/linear_operator-0.6.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/lineax-0.1.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/llvmlite-0.50.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/lxml-6.1.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/markupsafe-3.0.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/matplotlib-3.11.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mdurl-0.1.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/ml_dtypes-0.6.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpi4py-4.1.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath-1.3.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/__pycache__",
      "files": 12,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/calculus/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/functions/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/libmp/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mpmath/matrices/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/msgpack-1.2.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/multidict-6.9.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/multipledispatch-1.0.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/mypy_extensions-1.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nanobind-3.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/narwhals-2.26.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/networkx",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/ninja-1.13.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numba-0.68.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numba_cuda-0.30.4.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy.libs/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy.libs/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy.libs/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/_core/__pycache__",
      "files": 26,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/_typing/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/_utils/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/fft/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/lib/__pycache__",
      "files": 29,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/linalg/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/matrixlib/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpy/random/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/numpyro-0.21.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/glibc-hwcaps/x86-64-v2",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/glibc-hwcaps/x86-64-v3",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/glibc-hwcaps/x86-64-v4",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cublas/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cublas/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cublas/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cublas/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v2",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v3",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v4",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cublas-13.1.0.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cuda_cupti-13.0.85.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cuda_nvrtc-13.0.88.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cuda_runtime-13.0.96.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cudnn_cu13-9.19.0.56.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cufft-12.0.0.61.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cufile-1.15.1.6.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_curand-10.4.0.35.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cusolver-12.0.4.66.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cusparse-12.6.3.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cusparselt_cu13-0.8.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_ml_py-13.610.43.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_nccl_cu13-2.28.9.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_nvjitlink-13.0.88.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_nvshmem_cu13-3.4.5.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_nvtx-13.0.85.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/onnx",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/onnx_ir-1.0.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/onnxruntime",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/onnxscript-0.7.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opencv_python_headless-5.0.0.93.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opt_einsum",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opt_einsum-3.4.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opt_einsum/backends",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/opt_einsum_fx-0.1.4.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/optax-0.2.8.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/optimistix-0.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/orbax_checkpoint-0.12.4.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/packaging-26.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pandas",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pathspec-1.1.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/patsy-1.0.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/peft-0.21.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pillow-12.3.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pillow.libs/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pillow.libs/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pillow.libs/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pluggy-1.6.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/portalocker-4.4.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/prometheus_client-0.26.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/propcache-0.5.4.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/protobuf-7.36.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/psutil-7.2.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pyarrow-25.0.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pyparsing-3.3.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pyproject_hooks-1.3.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pyre_extensions-0.0.32.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/python_dateutil-2.9.0.post0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pytorch_lightning-2.6.6.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/pyyaml-6.0.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/regex-2026.9.3.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/requests-2.34.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/rich-15.0.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/safetensors-0.8.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/scikit_image-0.26.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/scikit_learn-1.9.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/scipy-1.18.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/seaborn-0.13.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sentence_transformers-6.0.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sentencepiece-0.2.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/shellingham-1.5.4.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/simplejson-4.1.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/six-1.17.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sklearn",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sortedcontainers-2.4.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/statsmodels-0.15.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/algebras/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/assumptions/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/assumptions/relation/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/calculus/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/concrete/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/core/__pycache__",
      "files": 35,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/discrete/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/external/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/combinatorial/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/elementary/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/functions/special/__pycache__",
      "files": 15,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/geometry/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/integrals/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/interactive/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/logic/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/matrices/__pycache__",
      "files": 18,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/matrices/expressions/__pycache__",
      "files": 22,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/multipledispatch/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/ntheory/__pycache__",
      "files": 13,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/parsing/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/backends/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/backends/matplotlibbackend/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/backends/textbackend/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/intervalmath/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/plotting/pygletplot/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/__pycache__",
      "files": 37,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/agca/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/domains/__pycache__",
      "files": 28,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/matrices/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/polys/numberfields/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/printing/__pycache__",
      "files": 27,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/printing/pretty/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/series/__pycache__",
      "files": 12,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/sets/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/sets/handlers/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/simplify/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/solvers/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/solvers/diophantine/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/solvers/ode/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/strategies/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/strategies/branch/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/tensor/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/tensor/array/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/utilities/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/sympy/utilities/mathml/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tabulate",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tensorboard_data_server-0.7.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tensorstore-0.1.85.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/third_party",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/threadpoolctl-3.7.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tiktoken-0.14.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tokenizers-0.23.2.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/toolz-1.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_C",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/__pycache__",
      "files": 40,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_awaits/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_custom_op/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_decomp/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dispatch/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/__pycache__",
      "files": 47,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/backends/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/polyfills/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/variables/__pycache__",
      "files": 23,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_export/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/__pycache__",
      "files": 13,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_functorch/_aot_autograd/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_higher_order_ops/__pycache__",
      "files": 29,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor/analysis/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor/runtime/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_library/__pycache__",
      "files": 12,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_logging/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_numpy/__pycache__",
      "files": 17,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_prims/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_prims_common/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/linalg/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/nn/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/nn/functional/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_refs/special/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_strobelight/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_subclasses/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_vendor",
      "files": 5,
      "reads": 1,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_vendor/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/_vendor/packaging/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/accelerator/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/amp/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/modules/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/qat/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/qat/modules/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/dynamic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/dynamic/modules/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/intrinsic/quantized/modules/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/dynamic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/dynamic/modules/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/qat/modules/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantizable/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantizable/modules/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/dynamic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/dynamic/modules/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/modules/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/reference/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/quantized/reference/modules/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/sparse/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/sparse/quantized/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/nn/sparse/quantized/dynamic/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/ao/quantization/__pycache__",
      "files": 13,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/autograd/__pycache__",
      "files": 12,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cpu/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cuda/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cudnn/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/cusparselt/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/kleidiai/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mha/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/miopen/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mkl/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mkldnn/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/mps/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/nnpack/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/openmp/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/opt_einsum/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/backends/quantized/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/bin",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/compiler/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cpu/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cpu/amp/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cuda/__pycache__",
      "files": 17,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/cuda/amp/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/__pycache__",
      "files": 16,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_composable/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_local_tensor/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_pycute/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharded_tensor/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharded_tensor/_ops/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharding_plan/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharding_spec/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/_shard/sharding_spec/chunk_sharding_spec_ops/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/algorithms/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/algorithms/_checkpoint/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/algorithms/_comm_hooks/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/autograd/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/fsdp/__pycache__",
      "files": 19,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/fsdp/_fully_shard/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/api/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/jit/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/nn/jit/templates/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/rpc/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/tensor/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/tensor/_ops/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributed/tensor/parallel/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/distributions/__pycache__",
      "files": 48,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/export/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fft/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/func/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/futures/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/__pycache__",
      "files": 16,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/experimental/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/passes/__pycache__",
      "files": 15,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/passes/infra/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/fx/passes/utils/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/jit/__pycache__",
      "files": 18,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/linalg/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/masked/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/masked/maskedtensor/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/monitor/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/mps/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/mtia/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/multiprocessing/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nested/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nested/_internal/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/attention/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/modules/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/qat/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/qat/modules/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/dynamic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/dynamic/modules/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/intrinsic/quantized/modules/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/modules/__pycache__",
      "files": 26,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/__pycache__",
      "files": 8,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/dynamic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/dynamic/modules/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/qat/modules/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantizable/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantizable/modules/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantized/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantized/dynamic/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/quantized/modules/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/utils/__pycache__",
      "files": 13,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/utils/_expanded_weights/__pycache__",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/_internal/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/_internal/exporter/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/_internal/torchscript_exporter/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/onnx/ops/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/optim/__pycache__",
      "files": 20,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/package/__pycache__",
      "files": 14,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/package/analyze/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/profiler/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/quantization/__pycache__",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/signal/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/signal/windows/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/sparse/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/special/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/testing/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/testing/_internal/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/testing/_internal/distributed/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/__pycache__",
      "files": 32,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/_sympy/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/backcompat/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/__pycache__",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/_utils/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/dataframe/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/iter/__pycache__",
      "files": 12,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/map/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/datapipes/utils/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/serialization/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch/xpu/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torch_geometric-2.8.0.post1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchaudio-2.11.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchdiffeq-0.2.5.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchgen/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchmetrics-1.9.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision-0.26.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision.libs/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision.libs/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision.libs/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/datasets",
      "files": 53,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/io",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/detection",
      "files": 19,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/optical_flow",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/quantization",
      "files": 12,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/segmentation",
      "files": 8,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/models/video",
      "files": 8,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/ops",
      "files": 22,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/torchvision/transforms",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/tqdm",
      "files": 11,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/treescope-0.1.10.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/_C/libtriton",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/__pycache__",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/amd/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/compiler/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/__pycache__",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/extra/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/extra/cuda/__pycache__",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/language/extra/hip/__pycache__",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/runtime/__pycache__",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/triton/tools/__pycache__",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/typing_extensions-4.16.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/typing_inspect-0.9.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/urllib3-2.7.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/uvloop-0.23.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/wadler_lindig-0.1.7.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/werkzeug-3.1.9.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/wrapt-2.5.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/xarray",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/xxhash-4.0.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/yarl-1.25.1.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/lib/python3.12/site-packages/zipp-4.1.0.dist-info",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/opt/torch/.venv/local/lib/python3.12",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/proc/1005/ns",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/proc/driver/nvidia/gpus/0000:00:06.0",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/proc/sys/crypto",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/root",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/root/.nv",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/sys/devices/system",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/checkpoints",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/train",
      "files": 16,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/dlgen-replay/imagenet/val",
      "files": 16,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-24el9fwb",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-3bn3ch1j",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-4_oa8c98",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-4votv7a9",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-5dl_4hi5",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-6blhmi_g",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-6xot1mfy",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-7h4nqrd_",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-86p_y6s_",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-8c6hiyiq",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-9belzzex",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-9y7ktkke",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-abo0b1p7",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-asv9m4i3",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-d0tluhu9",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-fy258a3o",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-hqhycklt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-mhjqfj37",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-o1pjcjoe",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-oetvok0e",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-ol4xphte",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-q25i_kor",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-t38rs6jg",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/tmp/pymp-z1ufsf4w",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/bin",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/bin/Modules",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/bin/lib",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/bin/lib/python3.12",
      "files": 3,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib",
      "files": 16,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/locale",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12",
      "files": 115,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/asyncio",
      "files": 32,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/collections",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/concurrent",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/concurrent/futures",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/ctypes",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/email",
      "files": 18,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/encodings",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/html",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/http",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/importlib",
      "files": 13,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/importlib/metadata",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/importlib/resources",
      "files": 10,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/json",
      "files": 7,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cu13",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvidia/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/lib-dynload/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/logging",
      "files": 4,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cu13",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvidia/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/re",
      "files": 8,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/unittest",
      "files": 13,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/urllib",
      "files": 8,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/xml",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/xml/etree",
      "files": 6,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/zipfile",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python3.12/zipfile/_path",
      "files": 5,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cu13",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvidia/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/python312.zip/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/x86_64-linux-gnu/gconv",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/local/lib",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale-langpack/en.UTF-8/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale-langpack/en/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale-langpack/en_US.UTF-8/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale-langpack/en_US/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale/en.UTF-8/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale/en/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale/en_US.UTF-8/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/locale/en_US/LC_MESSAGES",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/usr/share/nvidia",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main",
      "files": 9,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/.gpu/lib",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/.gpu/lib/glibc-hwcaps/x86-64-v2",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/.gpu/lib/glibc-hwcaps/x86-64-v3",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/.gpu/lib/glibc-hwcaps/x86-64-v4",
      "files": 2,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/__pycache__",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cu13",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cublas",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cuda_cupti",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cuda_nvrtc",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cuda_runtime",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cudnn",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cufft",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cufile",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/curand",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cusolver",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cusparse",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/cusparselt",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/nccl",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvidia/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvjitlink",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvshmem",
      "files": 1,
      "reads": 0,
      "writes": 0
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "dir": "/work/main/tests/pytorch/nvtx",
      "files": 1,
      "reads": 0,
      "writes": 0
    }
  ],
  "dlgen_version": "0.1.0",
  "duration_s": 18.537594474000002,
  "events": 240674,
  "exit_status": 0,
  "files": 9391,
  "gpu": {
    "cuda_lib": "/usr/local/nvidia/lib64/libcuda.so.1",
    "cuda_probes": [
      "cuStreamSynchronize",
      "cuStreamSynchronize_ptsz",
      "cuEventSynchronize",
      "cuCtxSynchronize",
      "cuMemcpyHtoD_v2",
      "cuMemcpyHtoD_v2_ptds",
      "cuMemcpyHtoDAsync_v2",
      "cuMemcpyHtoDAsync_v2_ptsz",
      "cuMemcpyDtoH_v2",
      "cuMemcpyDtoH_v2_ptds",
      "cuMemcpyDtoHAsync_v2",
      "cuMemcpyDtoHAsync_v2_ptsz",
      "cuLaunchKernel",
      "cuLaunchKernel_ptsz",
      "cuLaunchKernelEx",
      "cuLaunchKernelEx_ptsz"
    ],
    "devices": [
      "NVIDIA H200"
    ],
    "driver": "580.159.04",
    "note": ""
  },
  "host": "vm",
  "kernel": "Linux 6.18.44-fc-v657-gpu #1 SMP PREEMPT_DYNAMIC @0 x86_64",
  "lost": {
    "block_map": 0,
    "cuda_map": 0,
    "malformed": 0,
    "missed": 0,
    "process_map": 0,
    "ring_buffer": 0,
    "task_storage": 0,
    "unattributed": 0,
    "uring_map": 0
  },
  "lost_events": 0,
  "ops": {
    "close": {
      "busy_s": 0.038880521,
      "bytes": 0,
      "count": 9816,
      "errors": 0
    },
    "cuda_dtoh": {
      "busy_s": 0.05157894400000005,
      "bytes": 0,
      "count": 976,
      "errors": 0
    },
    "cuda_htod": {
      "busy_s": 0.016915376000000006,
      "bytes": 0,
      "count": 464,
      "errors": 0
    },
    "cuda_launch": {
      "busy_s": 0.0,
      "bytes": 0,
      "count": 54077,
      "errors": 0
    },
    "cuda_sync": {
      "busy_s": 0.36477144800000044,
      "bytes": 0,
      "count": 2048,
      "errors": 0
    },
    "exec": {
      "busy_s": 0.0,
      "bytes": 0,
      "count": 2,
      "errors": 0
    },
    "exit": {
      "busy_s": 0.0,
      "bytes": 0,
      "count": 139,
      "errors": 0
    },
    "fallocate": {
      "busy_s": 0.4160749439999999,
      "bytes": 0,
      "count": 144,
      "errors": 0
    },
    "fault": {
      "busy_s": 0.0,
      "bytes": 4205568000,
      "count": 70917,
      "errors": 0
    },
    "fork": {
      "busy_s": 0.0,
      "bytes": 0,
      "count": 32,
      "errors": 0
    },
    "ftruncate": {
      "busy_s": 0.0006108800000000001,
      "bytes": 0,
      "count": 144,
      "errors": 0
    },
    "getdents": {
      "busy_s": 0.005366952000000001,
      "bytes": 0,
      "count": 710,
      "errors": 0
    },
    "lseek": {
      "busy_s": 0.0058136579999999985,
      "bytes": 0,
      "count": 14429,
      "errors": 0
    },
    "mkdir": {
      "busy_s": 0.0018327399999999998,
      "bytes": 0,
      "count": 31,
      "errors": 6
    },
    "mmap": {
      "busy_s": 0.009343831999999995,
      "bytes": 0,
      "count": 1057,
      "errors": 0
    },
    "munmap": {
      "busy_s": 0.2514951599999997,
      "bytes": 0,
      "count": 5941,
      "errors": 0
    },
    "open": {
      "busy_s": 0.06713159600000017,
      "bytes": 0,
      "count": 10818,
      "errors": 2569
    },
    "pread": {
      "busy_s": 5.131999999999999e-06,
      "bytes": 8064,
      "count": 10,
      "errors": 0
    },
    "read": {
      "busy_s": 0.14422704199999967,
      "bytes": 241358046,
      "count": 23815,
      "errors": 0
    },
    "recvmsg": {
      "busy_s": 0.006728896000000002,
      "bytes": 0,
      "count": 144,
      "errors": 0
    },
    "sendfile": {
      "busy_s": 0.06344088,
      "bytes": 188696526,
      "count": 2,
      "errors": 0
    },
    "sendmsg": {
      "busy_s": 0.0007586560000000002,
      "bytes": 0,
      "count": 144,
      "errors": 0
    },
    "shm_open": {
      "busy_s": 0.10513171200000007,
      "bytes": 0,
      "count": 272,
      "errors": 0
    },
    "stat": {
      "busy_s": 0.04497813800000113,
      "bytes": 0,
      "count": 42125,
      "errors": 1421
    },
    "task_rename": {
      "busy_s": 0.0,
      "bytes": 0,
      "count": 41,
      "errors": 0
    },
    "thread": {
      "busy_s": 0.0,
      "bytes": 0,
      "count": 106,
      "errors": 0
    },
    "unlink": {
      "busy_s": 0.0020844960000000004,
      "bytes": 0,
      "count": 439,
      "errors": 14
    },
    "write": {
      "busy_s": 0.005715119999999989,
      "bytes": 105102,
      "count": 1499,
      "errors": 0
    },
    "writev": {
      "busy_s": 0.09291628799999996,
      "bytes": 377392856,
      "count": 332,
      "errors": 0
    }
  },
  "processes": [
    {
      "bytes_read": 239317032,
      "bytes_written": 377413182,
      "comm": "python3",
      "io_ops": 5738,
      "is_thread": false,
      "pid": 1005,
      "ppid": 1001,
      "role": "main",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1009,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1010,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1011,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1012,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1013,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1014,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1015,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1016,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1017,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1018,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1019,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1020,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1021,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1022,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "comm": "python3",
      "io_ops": 0,
      "is_thread": true,
      "pid": 1023,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 16,
      "bytes_written": 0,
      "comm": "cuda00001400006",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1028,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 88,
      "bytes_written": 0,
      "comm": "cuda-EvtHandlr",
      "io_ops": 11,
      "is_thread": true,
      "pid": 1032,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 9707751,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 850,
      "is_thread": false,
      "pid": 1033,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1033
    },
    {
      "bytes_read": 9916322,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 852,
      "is_thread": false,
      "pid": 1034,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1034
    },
    {
      "bytes_read": 9674727,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 851,
      "is_thread": false,
      "pid": 1035,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1035
    },
    {
      "bytes_read": 9405600,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 849,
      "is_thread": false,
      "pid": 1036,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1036
    },
    {
      "bytes_read": 10121941,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 848,
      "is_thread": false,
      "pid": 1037,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1037
    },
    {
      "bytes_read": 9449643,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 847,
      "is_thread": false,
      "pid": 1038,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1038
    },
    {
      "bytes_read": 9811849,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 848,
      "is_thread": false,
      "pid": 1039,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1039
    },
    {
      "bytes_read": 9718978,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 852,
      "is_thread": false,
      "pid": 1040,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1040
    },
    {
      "bytes_read": 21876,
      "bytes_written": 9152,
      "comm": "pt_data_pin",
      "io_ops": 706,
      "is_thread": true,
      "pid": 1041,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 843,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1042,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 841,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1043,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 837,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1044,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 842,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1045,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 840,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1046,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 5,
      "bytes_written": 836,
      "comm": "python3",
      "io_ops": 6,
      "is_thread": true,
      "pid": 1047,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 843,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1048,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 838,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1049,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1050,
      "ppid": 1039,
      "role": "dataloader_worker",
      "tgid": 1039
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1051,
      "ppid": 1039,
      "role": "dataloader_worker",
      "tgid": 1039
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1052,
      "ppid": 1037,
      "role": "dataloader_worker",
      "tgid": 1037
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1053,
      "ppid": 1037,
      "role": "dataloader_worker",
      "tgid": 1037
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1054,
      "ppid": 1033,
      "role": "dataloader_worker",
      "tgid": 1033
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1055,
      "ppid": 1033,
      "role": "dataloader_worker",
      "tgid": 1033
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1056,
      "ppid": 1036,
      "role": "dataloader_worker",
      "tgid": 1036
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1057,
      "ppid": 1036,
      "role": "dataloader_worker",
      "tgid": 1036
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1058,
      "ppid": 1035,
      "role": "dataloader_worker",
      "tgid": 1035
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1059,
      "ppid": 1034,
      "role": "dataloader_worker",
      "tgid": 1034
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1060,
      "ppid": 1035,
      "role": "dataloader_worker",
      "tgid": 1035
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1061,
      "ppid": 1038,
      "role": "dataloader_worker",
      "tgid": 1038
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1062,
      "ppid": 1034,
      "role": "dataloader_worker",
      "tgid": 1034
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1063,
      "ppid": 1038,
      "role": "dataloader_worker",
      "tgid": 1038
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1064,
      "ppid": 1040,
      "role": "dataloader_worker",
      "tgid": 1040
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1065,
      "ppid": 1040,
      "role": "dataloader_worker",
      "tgid": 1040
    },
    {
      "bytes_read": 10695903,
      "bytes_written": 0,
      "comm": "pt_autograd_0",
      "io_ops": 460,
      "is_thread": true,
      "pid": 1070,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 20,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1071,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 2885046,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 260,
      "is_thread": false,
      "pid": 1072,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1072
    },
    {
      "bytes_read": 2926993,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 261,
      "is_thread": false,
      "pid": 1073,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1073
    },
    {
      "bytes_read": 2730269,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 260,
      "is_thread": false,
      "pid": 1074,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1074
    },
    {
      "bytes_read": 2734541,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 259,
      "is_thread": false,
      "pid": 1075,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1075
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1076,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1076
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1077,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1077
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1078,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1078
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1079,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1079
    },
    {
      "bytes_read": 2752,
      "bytes_written": 1144,
      "comm": "pt_data_pin",
      "io_ops": 90,
      "is_thread": true,
      "pid": 1080,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1081,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1082,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1083,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1084,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1085,
      "ppid": 1075,
      "role": "dataloader_worker",
      "tgid": 1075
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1086,
      "ppid": 1075,
      "role": "dataloader_worker",
      "tgid": 1075
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1087,
      "ppid": 1074,
      "role": "dataloader_worker",
      "tgid": 1074
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1088,
      "ppid": 1072,
      "role": "dataloader_worker",
      "tgid": 1072
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1089,
      "ppid": 1074,
      "role": "dataloader_worker",
      "tgid": 1074
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1090,
      "ppid": 1072,
      "role": "dataloader_worker",
      "tgid": 1072
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1091,
      "ppid": 1073,
      "role": "dataloader_worker",
      "tgid": 1073
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1092,
      "ppid": 1073,
      "role": "dataloader_worker",
      "tgid": 1073
    },
    {
      "bytes_read": 0,
      "bytes_written": 20,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1093,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1094,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1095,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1096,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1097,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 9995327,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 851,
      "is_thread": false,
      "pid": 1098,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1098
    },
    {
      "bytes_read": 9815176,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 850,
      "is_thread": false,
      "pid": 1099,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1099
    },
    {
      "bytes_read": 9625578,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 850,
      "is_thread": false,
      "pid": 1100,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1100
    },
    {
      "bytes_read": 9746845,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 853,
      "is_thread": false,
      "pid": 1101,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1101
    },
    {
      "bytes_read": 9707860,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 847,
      "is_thread": false,
      "pid": 1102,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1102
    },
    {
      "bytes_read": 9434116,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 849,
      "is_thread": false,
      "pid": 1103,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1103
    },
    {
      "bytes_read": 9611914,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 849,
      "is_thread": false,
      "pid": 1104,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1104
    },
    {
      "bytes_read": 9869995,
      "bytes_written": 4,
      "comm": "pt_data_worker",
      "io_ops": 848,
      "is_thread": false,
      "pid": 1105,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1105
    },
    {
      "bytes_read": 21876,
      "bytes_written": 9152,
      "comm": "pt_data_pin",
      "io_ops": 706,
      "is_thread": true,
      "pid": 1106,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 840,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1107,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 837,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1108,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 839,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1109,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 842,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1110,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 832,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1111,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 840,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1112,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 843,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1113,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 847,
      "comm": "python3",
      "io_ops": 5,
      "is_thread": true,
      "pid": 1114,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1115,
      "ppid": 1102,
      "role": "dataloader_worker",
      "tgid": 1102
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1116,
      "ppid": 1104,
      "role": "dataloader_worker",
      "tgid": 1104
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1117,
      "ppid": 1102,
      "role": "dataloader_worker",
      "tgid": 1102
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1118,
      "ppid": 1104,
      "role": "dataloader_worker",
      "tgid": 1104
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1119,
      "ppid": 1100,
      "role": "dataloader_worker",
      "tgid": 1100
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1120,
      "ppid": 1100,
      "role": "dataloader_worker",
      "tgid": 1100
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1121,
      "ppid": 1103,
      "role": "dataloader_worker",
      "tgid": 1103
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1122,
      "ppid": 1103,
      "role": "dataloader_worker",
      "tgid": 1103
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1123,
      "ppid": 1105,
      "role": "dataloader_worker",
      "tgid": 1105
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1124,
      "ppid": 1105,
      "role": "dataloader_worker",
      "tgid": 1105
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1125,
      "ppid": 1101,
      "role": "dataloader_worker",
      "tgid": 1101
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1126,
      "ppid": 1101,
      "role": "dataloader_worker",
      "tgid": 1101
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1127,
      "ppid": 1099,
      "role": "dataloader_worker",
      "tgid": 1099
    },
    {
      "bytes_read": 0,
      "bytes_written": 1776,
      "comm": "pt_data_worker",
      "io_ops": 8,
      "is_thread": true,
      "pid": 1128,
      "ppid": 1098,
      "role": "dataloader_worker",
      "tgid": 1098
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1129,
      "ppid": 1098,
      "role": "dataloader_worker",
      "tgid": 1098
    },
    {
      "bytes_read": 1144,
      "bytes_written": 960,
      "comm": "pt_data_worker",
      "io_ops": 88,
      "is_thread": true,
      "pid": 1130,
      "ppid": 1099,
      "role": "dataloader_worker",
      "tgid": 1099
    },
    {
      "bytes_read": 0,
      "bytes_written": 20,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1131,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 2885046,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 260,
      "is_thread": false,
      "pid": 1132,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1132
    },
    {
      "bytes_read": 2926993,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 261,
      "is_thread": false,
      "pid": 1133,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1133
    },
    {
      "bytes_read": 2730269,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 260,
      "is_thread": false,
      "pid": 1134,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1134
    },
    {
      "bytes_read": 2734541,
      "bytes_written": 1,
      "comm": "pt_data_worker",
      "io_ops": 259,
      "is_thread": false,
      "pid": 1135,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1135
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1136,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1136
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1137,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1137
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1138,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1138
    },
    {
      "bytes_read": 226553,
      "bytes_written": 0,
      "comm": "pt_data_worker",
      "io_ops": 43,
      "is_thread": false,
      "pid": 1139,
      "ppid": 1005,
      "role": "dataloader_worker",
      "tgid": 1139
    },
    {
      "bytes_read": 2752,
      "bytes_written": 1144,
      "comm": "pt_data_pin",
      "io_ops": 90,
      "is_thread": true,
      "pid": 1140,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1141,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1142,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1143,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 160,
      "comm": "python3",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1144,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1145,
      "ppid": 1132,
      "role": "dataloader_worker",
      "tgid": 1132
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1146,
      "ppid": 1132,
      "role": "dataloader_worker",
      "tgid": 1132
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1147,
      "ppid": 1135,
      "role": "dataloader_worker",
      "tgid": 1135
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1148,
      "ppid": 1135,
      "role": "dataloader_worker",
      "tgid": 1135
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1149,
      "ppid": 1134,
      "role": "dataloader_worker",
      "tgid": 1134
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1150,
      "ppid": 1134,
      "role": "dataloader_worker",
      "tgid": 1134
    },
    {
      "bytes_read": 0,
      "bytes_written": 444,
      "comm": "pt_data_worker",
      "io_ops": 2,
      "is_thread": true,
      "pid": 1151,
      "ppid": 1133,
      "role": "dataloader_worker",
      "tgid": 1133
    },
    {
      "bytes_read": 286,
      "bytes_written": 240,
      "comm": "pt_data_worker",
      "io_ops": 22,
      "is_thread": true,
      "pid": 1152,
      "ppid": 1133,
      "role": "dataloader_worker",
      "tgid": 1133
    },
    {
      "bytes_read": 0,
      "bytes_written": 20,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1153,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1154,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1155,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1156,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    },
    {
      "bytes_read": 0,
      "bytes_written": 8,
      "comm": "python3",
      "io_ops": 1,
      "is_thread": true,
      "pid": 1157,
      "ppid": 1005,
      "role": "thread",
      "tgid": 1005
    }
  ],
  "rank": -1,
  "request_sizes": [
    {
      "hi": 2,
      "lo": 1,
      "reads": 2338,
      "writes": 154
    },
    {
      "hi": 8,
      "lo": 4,
      "reads": 1220,
      "writes": 1
    },
    {
      "hi": 16,
      "lo": 8,
      "reads": 302,
      "writes": 335
    },
    {
      "hi": 32,
      "lo": 16,
      "reads": 154,
      "writes": 148
    },
    {
      "hi": 64,
      "lo": 32,
      "reads": 638,
      "writes": 714
    },
    {
      "hi": 128,
      "lo": 64,
      "reads": 53,
      "writes": 2
    },
    {
      "hi": 256,
      "lo": 128,
      "reads": 144,
      "writes": 72
    },
    {
      "hi": 512,
      "lo": 256,
      "reads": 169,
      "writes": 72
    },
    {
      "hi": 1024,
      "lo": 512,
      "reads": 231,
      "writes": 0
    },
    {
      "hi": 2048,
      "lo": 1024,
      "reads": 393,
      "writes": 0
    },
    {
      "hi": 4096,
      "lo": 2048,
      "reads": 270,
      "writes": 0
    },
    {
      "hi": 8192,
      "lo": 4096,
      "reads": 5876,
      "writes": 0
    },
    {
      "hi": 16384,
      "lo": 8192,
      "reads": 2225,
      "writes": 113
    },
    {
      "hi": 32768,
      "lo": 16384,
      "reads": 2243,
      "writes": 4
    },
    {
      "hi": 65536,
      "lo": 32768,
      "reads": 7257,
      "writes": 8
    },
    {
      "hi": 131072,
      "lo": 65536,
      "reads": 274,
      "writes": 24
    },
    {
      "hi": 262144,
      "lo": 131072,
      "reads": 33,
      "writes": 20
    },
    {
      "hi": 524288,
      "lo": 262144,
      "reads": 5,
      "writes": 28
    },
    {
      "hi": 1048576,
      "lo": 524288,
      "reads": 0,
      "writes": 24
    },
    {
      "hi": 2097152,
      "lo": 1048576,
      "reads": 0,
      "writes": 44
    },
    {
      "hi": 4194304,
      "lo": 2097152,
      "reads": 0,
      "writes": 32
    },
    {
      "hi": 8388608,
      "lo": 4194304,
      "reads": 0,
      "writes": 20
    },
    {
      "hi": 16777216,
      "lo": 8388608,
      "reads": 0,
      "writes": 16
    },
    {
      "hi": 268435456,
      "lo": 134217728,
      "reads": 2,
      "writes": 0
    }
  ],
  "throughput": [
    {
      "bytes_read": 5939803,
      "bytes_written": 0,
      "ops": 568,
      "t_s": 0
    },
    {
      "bytes_read": 8600433,
      "bytes_written": 0,
      "ops": 1025,
      "t_s": 1
    },
    {
      "bytes_read": 5367503,
      "bytes_written": 0,
      "ops": 646,
      "t_s": 2
    },
    {
      "bytes_read": 4118574,
      "bytes_written": 125,
      "ops": 745,
      "t_s": 3
    },
    {
      "bytes_read": 4647139,
      "bytes_written": 0,
      "ops": 316,
      "t_s": 4
    },
    {
      "bytes_read": 3441581,
      "bytes_written": 0,
      "ops": 297,
      "t_s": 5
    },
    {
      "bytes_read": 4395434,
      "bytes_written": 0,
      "ops": 587,
      "t_s": 6
    },
    {
      "bytes_read": 5567678,
      "bytes_written": 0,
      "ops": 501,
      "t_s": 7
    },
    {
      "bytes_read": 25776120,
      "bytes_written": 5328,
      "ops": 2486,
      "t_s": 8
    },
    {
      "bytes_read": 20624626,
      "bytes_written": 15746,
      "ops": 2479,
      "t_s": 9
    },
    {
      "bytes_read": 4340474,
      "bytes_written": 0,
      "ops": 204,
      "t_s": 10
    },
    {
      "bytes_read": 5522150,
      "bytes_written": 0,
      "ops": 244,
      "t_s": 11
    },
    {
      "bytes_read": 6194929,
      "bytes_written": 0,
      "ops": 264,
      "t_s": 12
    },
    {
      "bytes_read": 34466427,
      "bytes_written": 17834,
      "ops": 3654,
      "t_s": 13
    },
    {
      "bytes_read": 200887336,
      "bytes_written": 188702305,
      "ops": 1656,
      "t_s": 14
    },
    {
      "bytes_read": 65118405,
      "bytes_written": 30132,
      "ops": 6836,
      "t_s": 15
    },
    {
      "bytes_read": 23039875,
      "bytes_written": 10528,
      "ops": 2607,
      "t_s": 16
    },
    {
      "bytes_read": 2014149,
      "bytes_written": 188715960,
      "ops": 543,
      "t_s": 17
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "ops": 0,
      "t_s": 18
    }
  ],
  "world_size": 0
}
exit 0
