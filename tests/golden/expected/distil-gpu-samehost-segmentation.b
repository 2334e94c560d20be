{
  "accelerator_starts_s": [
    [
      0.0
    ],
    [
      0.0
    ],
    [
      0.0
    ],
    [
      0.0
    ],
    [
      0.0
    ],
    [
      0.0
    ],
    [
      0.0
    ],
    [
      0.0
    ]
  ],
  "accelerators": [
    {
      "host": 0,
      "pid": 1527,
      "readers": [
        1555,
        1556,
        1557,
        1558,
        1578,
        1579,
        1580,
        1581,
        1596,
        1597,
        1598,
        1599,
        1614,
        1615,
        1616,
        1617,
        1632,
        1633,
        1634,
        1635,
        1650,
        1651,
        1652,
        1653,
        1668,
        1669,
        1670,
        1671,
        1686,
        1687,
        1688,
        1689
      ],
      "reads_itself": false,
      "workers": 4
    }
  ],
  "au": {
    "au": 0.2855906368132469,
    "mean": 0.2855906368132469,
    "measured": true,
    "per_accelerator": [
      {
        "au": 0.2855906368132469,
        "compute_s": 3.6744156250000004,
        "first_wait_s": 0.08125304500000001,
        "pid": 1527,
        "prefetch": 2,
        "wall_s": 12.866022731000001
      }
    ],
    "run_begin_ns": 9145958375,
    "run_end_ns": 22093234151
  },
  "au_gpu": {
    "au": 0.9129824510489588,
    "mean": 0.9129824510489588,
    "per_accelerator": [
      {
        "au": 0.9129824510489588,
        "busy_s": 11.7464529682,
        "eval_steps": 16,
        "measured": true,
        "seen_s": 11.341572977,
        "seen_steps": 52,
        "steps": 40,
        "wall_s": 12.866022731000001
      }
    ],
    "source": "cuda"
  },
  "batch_size": 2,
  "batches": [
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9178611750,
      "received_ns": 9227211420,
      "samples": 4,
      "worker": 1555
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9179589625,
      "received_ns": 9281635651,
      "samples": 4,
      "worker": 1558
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9181333750,
      "received_ns": 9310799353,
      "samples": 4,
      "worker": 1556
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9184464750,
      "received_ns": 9361781234,
      "samples": 4,
      "worker": 1557
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9246789250,
      "received_ns": 9457623758,
      "samples": 4,
      "worker": 1555
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9252394875,
      "received_ns": 9410161976,
      "samples": 4,
      "worker": 1556
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9255065375,
      "received_ns": 9505366883,
      "samples": 4,
      "worker": 1557
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9259472000,
      "received_ns": 9553116627,
      "samples": 4,
      "worker": 1558
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 9320872875,
      "received_ns": 9601000705,
      "samples": 4,
      "worker": 1555
    },
    {
      "accelerator": 0,
      "epoch": 0,
      "ready_ns": 15428240250,
      "received_ns": 15471176973,
      "samples": 4,
      "worker": 1556
    },
    {
      "accelerator": 0,
      "epoch": 1,
      "ready_ns": 16406955125,
      "received_ns": 16432948353,
      "samples": 2,
      "worker": 1578
    },
    {
      "accelerator": 0,
      "epoch": 1,
      "ready_ns": 16410009000,
      "received_ns": 16480627330,
      "samples": 2,
      "worker": 1580
    },
    {
      "accelerator": 0,
      "epoch": 1,
      "ready_ns": 16410562125,
      "received_ns": 16450362539,
      "samples": 2,
      "worker": 1581
    },
    {
      "accelerator": 0,
      "epoch": 1,
      "ready_ns": 16411706625,
      "received_ns": 16464488824,
      "samples": 2,
      "worker": 1579
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17679782375,
      "received_ns": 17743892148,
      "samples": 4,
      "worker": 1597
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17680248250,
      "received_ns": 17767297238,
      "samples": 4,
      "worker": 1596
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17681373250,
      "received_ns": 17720698555,
      "samples": 4,
      "worker": 1599
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17685594625,
      "received_ns": 17791899843,
      "samples": 4,
      "worker": 1598
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17740449625,
      "received_ns": 17817238423,
      "samples": 4,
      "worker": 1599
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17749595500,
      "received_ns": 17840737250,
      "samples": 4,
      "worker": 1597
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17754786250,
      "received_ns": 17866148528,
      "samples": 4,
      "worker": 1596
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17775956750,
      "received_ns": 17888393185,
      "samples": 4,
      "worker": 1598
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17828055000,
      "received_ns": 17910372025,
      "samples": 4,
      "worker": 1596
    },
    {
      "accelerator": 0,
      "epoch": 2,
      "ready_ns": 17945509125,
      "received_ns": 17987357856,
      "samples": 4,
      "worker": 1597
    },
    {
      "accelerator": 0,
      "epoch": 3,
      "ready_ns": 18936684250,
      "received_ns": 18960761488,
      "samples": 2,
      "worker": 1614
    },
    {
      "accelerator": 0,
      "epoch": 3,
      "ready_ns": 18937912000,
      "received_ns": 18971161174,
      "samples": 2,
      "worker": 1615
    },
    {
      "accelerator": 0,
      "epoch": 3,
      "ready_ns": 18938386000,
      "received_ns": 18991445822,
      "samples": 2,
      "worker": 1616
    },
    {
      "accelerator": 0,
      "epoch": 3,
      "ready_ns": 18943305750,
      "received_ns": 18981959208,
      "samples": 2,
      "worker": 1617
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19133363375,
      "received_ns": 19259937859,
      "samples": 4,
      "worker": 1634
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19134272000,
      "received_ns": 19182116116,
      "samples": 4,
      "worker": 1633
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19137627625,
      "received_ns": 19208027946,
      "samples": 4,
      "worker": 1635
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19137889625,
      "received_ns": 19236094385,
      "samples": 4,
      "worker": 1632
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19190486125,
      "received_ns": 19285871202,
      "samples": 4,
      "worker": 1634
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19204977625,
      "received_ns": 19308678933,
      "samples": 4,
      "worker": 1635
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19206293875,
      "received_ns": 19332065356,
      "samples": 4,
      "worker": 1633
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19214275375,
      "received_ns": 19353777625,
      "samples": 4,
      "worker": 1632
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19283183625,
      "received_ns": 19377339240,
      "samples": 4,
      "worker": 1632
    },
    {
      "accelerator": 0,
      "epoch": 4,
      "ready_ns": 19387775125,
      "received_ns": 19430445875,
      "samples": 4,
      "worker": 1633
    },
    {
      "accelerator": 0,
      "epoch": 5,
      "ready_ns": 20346841500,
      "received_ns": 20380070462,
      "samples": 2,
      "worker": 1650
    },
    {
      "accelerator": 0,
      "epoch": 5,
      "ready_ns": 20347207500,
      "received_ns": 20368800975,
      "samples": 2,
      "worker": 1651
    },
    {
      "accelerator": 0,
      "epoch": 5,
      "ready_ns": 20350607875,
      "received_ns": 20405640042,
      "samples": 2,
      "worker": 1652
    },
    {
      "accelerator": 0,
      "epoch": 5,
      "ready_ns": 20355501625,
      "received_ns": 20392600497,
      "samples": 2,
      "worker": 1653
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20590197375,
      "received_ns": 20638562449,
      "samples": 4,
      "worker": 1668
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20596037500,
      "received_ns": 20663934138,
      "samples": 4,
      "worker": 1671
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20598208750,
      "received_ns": 20688898767,
      "samples": 4,
      "worker": 1670
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20614222375,
      "received_ns": 20710579126,
      "samples": 4,
      "worker": 1669
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20662431625,
      "received_ns": 20731047766,
      "samples": 4,
      "worker": 1668
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20666814125,
      "received_ns": 20752965126,
      "samples": 4,
      "worker": 1671
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20698159875,
      "received_ns": 20774607129,
      "samples": 4,
      "worker": 1670
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20713292000,
      "received_ns": 20795719613,
      "samples": 4,
      "worker": 1669
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20733801875,
      "received_ns": 20816483174,
      "samples": 4,
      "worker": 1668
    },
    {
      "accelerator": 0,
      "epoch": 6,
      "ready_ns": 20815461000,
      "received_ns": 20869240208,
      "samples": 4,
      "worker": 1669
    },
    {
      "accelerator": 0,
      "epoch": 7,
      "ready_ns": 21751401375,
      "received_ns": 21773126648,
      "samples": 2,
      "worker": 1687
    },
    {
      "accelerator": 0,
      "epoch": 7,
      "ready_ns": 21752097125,
      "received_ns": 21785861892,
      "samples": 2,
      "worker": 1686
    },
    {
      "accelerator": 0,
      "epoch": 7,
      "ready_ns": 21754224625,
      "received_ns": 21811226424,
      "samples": 2,
      "worker": 1688
    },
    {
      "accelerator": 0,
      "epoch": 7,
      "ready_ns": 21757925375,
      "received_ns": 21798029270,
      "samples": 2,
      "worker": 1689
    }
  ],
  "block_sizes": [],
  "checkpoint_restore": false,
  "checkpoints": [
    {
      "after_epoch": 4,
      "after_step": 40,
      "at_epoch_end": true,
      "bytes": 249567909,
      "copied_bytes": 0,
      "end_ns": 22093234151,
      "files": 1,
      "fsync": false,
      "paths": [
        "/tmp/dlgen-replay/checkpoints/seg.again/unet3d.pt"
      ],
      "start_ns": 21872708875,
      "write_ops": 55,
      "write_sizes": [
        [
          98,
          1
        ],
        [
          11267,
          1
        ],
        [
          21704,
          1
        ],
        [
          66240,
          1
        ],
        [
          66432,
          1
        ],
        [
          111040,
          1
        ],
        [
          111232,
          1
        ],
        [
          115000,
          1
        ],
        [
          115520,
          1
        ],
        [
          221440,
          1
        ],
        [
          221568,
          1
        ],
        [
          221632,
          2
        ],
        [
          263360,
          1
        ],
        [
          263552,
          1
        ],
        [
          443072,
          3
        ],
        [
          443264,
          1
        ],
        [
          885120,
          1
        ],
        [
          885248,
          1
        ],
        [
          885440,
          2
        ],
        [
          1050816,
          1
        ],
        [
          1051008,
          1
        ],
        [
          1770688,
          3
        ],
        [
          1770880,
          1
        ],
        [
          2624192,
          1
        ],
        [
          2624384,
          1
        ],
        [
          3279552,
          1
        ],
        [
          3279744,
          1
        ],
        [
          3539584,
          1
        ],
        [
          3539712,
          1
        ],
        [
          3540160,
          2
        ],
        [
          7080128,
          3
        ],
        [
          7080320,
          1
        ],
        [
          8849600,
          1
        ],
        [
          8849792,
          1
        ],
        [
          11061952,
          4
        ],
        [
          11062144,
          4
        ],
        [
          14156928,
          1
        ],
        [
          14157056,
          1
        ],
        [
          22119808,
          1
        ],
        [
          22119936,
          1
        ]
      ],
      "writers": [
        0
      ]
    }
  ],
  "command": [
    "env",
    "-u",
    "LD_LIBRARY_PATH",
    "python3",
    "tests/pytorch/gpu_segmentation.py",
    "/tmp/dlgen-replay/kits",
    "--device",
    "cuda",
    "-j",
    "4",
    "-b",
    "2",
    "--epochs",
    "4",
    "--patch",
    "128",
    "--checkpoint",
    "/tmp/dlgen-replay/checkpoints/seg.again/unet3d.pt",
    "--log",
    "/root/out/logs/segmentation.again.log"
  ],
  "complete": true,
  "compute_time_s": {
    "count": 40,
    "max": 0.22887637500000002,
    "mean": 0.0882093,
    "min": 0.016224875,
    "p50": 0.09616075,
    "p90": 0.14021272500000015,
    "p99": 0.22883830125000001,
    "stdev": 0.05700824393058182
  },
  "concurrency": {
    "inflight_ns": [
      [
        1,
        211199619
      ],
      [
        2,
        43927240
      ],
      [
        3,
        46001289
      ],
      [
        4,
        19539240
      ],
      [
        5,
        11770
      ]
    ],
    "max_inflight": 5,
    "max_readers": 4,
    "mean_inflight": 1.6068202848405881,
    "readers_ns": [
      [
        1,
        211245083
      ],
      [
        2,
        43904743
      ],
      [
        3,
        46003968
      ],
      [
        4,
        19525364
      ]
    ]
  },
  "data_wait_time_s": {
    "count": 40,
    "max": 6.070543455,
    "mean": 0.153002403275,
    "min": 0.0,
    "p50": 0.0,
    "p90": 0.0050232625,
    "p99": 3.7145159549399964,
    "stdev": 0.9596483960439243
  },
  "datasets": [
    {
      "accesses": 160,
      "bytes_read": 1249351380,
      "class": "train",
      "depth": 0,
      "dir": "/tmp/dlgen-replay/kits",
      "dirs": 1,
      "extension": ".npy",
      "file_sizes": [
        13388672,
        3347264,
        12520064,
        3130112,
        11046048,
        2761608,
        15077780,
        3769541,
        11827328,
        2956928,
        11942328,
        2985678,
        14119328,
        3529928,
        11252648,
        2813258,
        13234016,
        3308600,
        10733312,
        2683424,
        12882048,
        3220608,
        15185168,
        3796388,
        12194288,
        3048668,
        13125528,
        3281478,
        12345568,
        3086488,
        11954108,
        2988623,
        11524340,
        2881181,
        11701024,
        2925352,
        12766448,
        3191708,
        10913528,
        2728478
      ],
      "files": 40,
      "files_per_dir": 0,
      "files_per_sample": 2,
      "format": "raw",
      "format_evidence": "extension .npy (magic bytes not recognised)",
      "order": {
        "ascending_fraction": 0.7569444444444444,
        "buffer_estimate": 0,
        "cross_epoch_spearman": 0.15084427767354594,
        "each_file_once": true,
        "kind": "shuffled",
        "reshuffled": true,
        "spearman": -0.09817073170731706,
        "spearman_z": -0.6130760230135013
      },
      "read": {
        "coverage": 1.0,
        "direct": false,
        "header_bytes": 128,
        "mmap": false,
        "reads_per_access": 5.0,
        "recipe": {
          "accesses": 160,
          "explained": 160,
          "steps": [
            "0+4KiB",
            "0+128",
            "0+4KiB",
            "4KiB+rest~4KiB"
          ],
          "templates": 1
        },
        "request_bytes": 0,
        "request_sizes": [
          [
            128,
            164
          ],
          [
            224,
            4
          ],
          [
            404,
            4
          ],
          [
            416,
            4
          ],
          [
            496,
            4
          ],
          [
            542,
            4
          ],
          [
            544,
            4
          ],
          [
            582,
            4
          ],
          [
            768,
            4
          ],
          [
            808,
            4
          ],
          [
            832,
            4
          ],
          [
            904,
            4
          ],
          [
            924,
            4
          ],
          [
            936,
            4
          ],
          [
            1152,
            4
          ],
          [
            1221,
            4
          ],
          [
            1244,
            4
          ],
          [
            1296,
            4
          ],
          [
            1693,
            4
          ],
          [
            1784,
            4
          ],
          [
            1792,
            4
          ],
          [
            1944,
            4
          ],
          [
            1980,
            4
          ],
          [
            2176,
            4
          ],
          [
            2200,
            4
          ],
          [
            2292,
            4
          ],
          [
            2488,
            4
          ],
          [
            2639,
            4
          ],
          [
            2688,
            4
          ],
          [
            2848,
            4
          ],
          [
            2944,
            4
          ],
          [
            3128,
            4
          ],
          [
            3232,
            4
          ],
          [
            3272,
            4
          ],
          [
            3312,
            4
          ],
          [
            3402,
            4
          ],
          [
            3492,
            4
          ],
          [
            3712,
            4
          ],
          [
            3790,
            4
          ],
          [
            3936,
            4
          ],
          [
            4096,
            320
          ],
          [
            2678784,
            4
          ],
          [
            2723840,
            4
          ],
          [
            2756608,
            4
          ],
          [
            2805760,
            4
          ],
          [
            2875392,
            4
          ],
          [
            2920448,
            4
          ],
          [
            2949120,
            4
          ],
          [
            2977792,
            4
          ],
          [
            2981888,
            4
          ],
          [
            3043328,
            4
          ],
          [
            3080192,
            4
          ],
          [
            3125248,
            4
          ],
          [
            3186688,
            4
          ],
          [
            3215360,
            4
          ],
          [
            3276800,
            4
          ],
          [
            3301376,
            4
          ],
          [
            3342336,
            4
          ],
          [
            3522560,
            4
          ],
          [
            3764224,
            4
          ],
          [
            3788800,
            4
          ],
          [
            10727424,
            4
          ],
          [
            10907648,
            4
          ],
          [
            11038720,
            4
          ],
          [
            11247616,
            4
          ],
          [
            11517952,
            4
          ],
          [
            11694080,
            4
          ],
          [
            11821056,
            4
          ],
          [
            11935744,
            4
          ],
          [
            11948032,
            4
          ],
          [
            12189696,
            4
          ],
          [
            12341248,
            4
          ],
          [
            12513280,
            4
          ],
          [
            12759040,
            4
          ],
          [
            12877824,
            4
          ],
          [
            13119488,
            4
          ],
          [
            13225984,
            4
          ],
          [
            13381632,
            4
          ],
          [
            14114816,
            4
          ],
          [
            15073280,
            4
          ],
          [
            15179776,
            4
          ]
        ],
        "whole_file": true
      },
      "size": {
        "count": 40,
        "max": 15185168.0,
        "mean": 7804222.125,
        "min": 2683424.0,
        "p50": 7264850.0,
        "p90": 13249481.6,
        "p99": 15143286.68,
        "stdev": 4828891.053265101
      },
      "total_bytes": 312168885
    },
    {
      "accesses": 32,
      "bytes_read": 253604544,
      "class": "validation",
      "depth": 0,
      "dir": "/tmp/dlgen-replay/kits",
      "dirs": 1,
      "extension": ".npy",
      "file_sizes": [
        10650768,
        2662788,
        13989584,
        3497492,
        14314928,
        3578828,
        11738288,
        2934668
      ],
      "files": 8,
      "files_per_dir": 0,
      "files_per_sample": 2,
      "format": "raw",
      "format_evidence": "extension .npy (magic bytes not recognised)",
      "order": {
        "ascending_fraction": 1.0,
        "buffer_estimate": 0,
        "cross_epoch_spearman": 0.9761904761904762,
        "each_file_once": true,
        "kind": "shuffled",
        "reshuffled": false,
        "spearman": 0.6845238095238094,
        "spearman_z": 1.8110797665025473
      },
      "read": {
        "coverage": 1.0,
        "direct": false,
        "header_bytes": 128,
        "mmap": false,
        "reads_per_access": 5.0,
        "recipe": {
          "accesses": 32,
          "explained": 32,
          "steps": [
            "0+4KiB",
            "0+128",
            "0+4KiB",
            "4KiB+rest~4KiB"
          ],
          "templates": 1
        },
        "request_bytes": 0,
        "request_sizes": [
          [
            128,
            32
          ],
          [
            388,
            4
          ],
          [
            1168,
            4
          ],
          [
            1744,
            4
          ],
          [
            1932,
            4
          ],
          [
            3020,
            4
          ],
          [
            3248,
            4
          ],
          [
            3504,
            4
          ],
          [
            3604,
            4
          ],
          [
            4096,
            64
          ],
          [
            2658304,
            4
          ],
          [
            2928640,
            4
          ],
          [
            3489792,
            4
          ],
          [
            3571712,
            4
          ],
          [
            10645504,
            4
          ],
          [
            11730944,
            4
          ],
          [
            13983744,
            4
          ],
          [
            14307328,
            4
          ]
        ],
        "whole_file": true
      },
      "size": {
        "count": 8,
        "max": 14314928.0,
        "mean": 7920918.0,
        "min": 2662788.0,
        "p50": 7114798.0,
        "p90": 14087187.2,
        "p99": 14292153.92,
        "stdev": 5219024.661809523
      },
      "total_bytes": 63367344
    }
  ],
  "duration_ns": 23171626296,
  "epochs": [
    {
      "accesses": 40,
      "after_step": 0,
      "bytes_read": 312337845,
      "dataset": 0,
      "end_ns": 15417898094,
      "evaluation": false,
      "index": 0,
      "order": [
        10,
        4,
        2,
        34,
        11,
        5,
        3,
        35,
        20,
        14,
        18,
        21,
        15,
        22,
        19,
        23,
        16,
        28,
        17,
        0,
        6,
        1,
        29,
        7,
        36,
        37,
        24,
        38,
        25,
        26,
        39,
        27,
        32,
        33,
        8,
        9,
        30,
        31,
        12,
        13
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ],
        [
          8,
          1
        ],
        [
          9,
          1
        ],
        [
          10,
          1
        ],
        [
          11,
          1
        ],
        [
          12,
          1
        ],
        [
          13,
          1
        ],
        [
          14,
          1
        ],
        [
          15,
          1
        ],
        [
          16,
          1
        ],
        [
          17,
          1
        ],
        [
          18,
          1
        ],
        [
          19,
          1
        ],
        [
          20,
          1
        ],
        [
          21,
          1
        ],
        [
          22,
          1
        ],
        [
          23,
          1
        ],
        [
          24,
          1
        ],
        [
          25,
          1
        ],
        [
          26,
          1
        ],
        [
          27,
          1
        ],
        [
          28,
          1
        ],
        [
          29,
          1
        ],
        [
          30,
          1
        ],
        [
          31,
          1
        ],
        [
          32,
          1
        ],
        [
          33,
          1
        ],
        [
          34,
          1
        ],
        [
          35,
          1
        ],
        [
          36,
          1
        ],
        [
          37,
          1
        ],
        [
          38,
          1
        ],
        [
          39,
          1
        ]
      ],
      "read_ops": 200,
      "reader_count": 4,
      "start_ns": 9145958375,
      "steps": 10,
      "unique_files": 40
    },
    {
      "accesses": 8,
      "after_step": 10,
      "bytes_read": 63401136,
      "dataset": 1,
      "end_ns": 16399286405,
      "evaluation": true,
      "index": 0,
      "order": [
        0,
        2,
        4,
        6,
        1,
        5,
        3,
        7
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ]
      ],
      "read_ops": 40,
      "reader_count": 4,
      "start_ns": 16389436375,
      "steps": 4,
      "unique_files": 8
    },
    {
      "accesses": 40,
      "after_step": 0,
      "bytes_read": 312337845,
      "dataset": 0,
      "end_ns": 17936033684,
      "evaluation": false,
      "index": 1,
      "order": [
        34,
        38,
        16,
        28,
        39,
        35,
        17,
        29,
        2,
        4,
        20,
        3,
        5,
        21,
        8,
        9,
        36,
        37,
        18,
        30,
        19,
        26,
        12,
        31,
        27,
        6,
        7,
        10,
        11,
        13,
        24,
        25,
        14,
        15,
        22,
        23,
        0,
        1,
        32,
        33
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ],
        [
          8,
          1
        ],
        [
          9,
          1
        ],
        [
          10,
          1
        ],
        [
          11,
          1
        ],
        [
          12,
          1
        ],
        [
          13,
          1
        ],
        [
          14,
          1
        ],
        [
          15,
          1
        ],
        [
          16,
          1
        ],
        [
          17,
          1
        ],
        [
          18,
          1
        ],
        [
          19,
          1
        ],
        [
          20,
          1
        ],
        [
          21,
          1
        ],
        [
          22,
          1
        ],
        [
          23,
          1
        ],
        [
          24,
          1
        ],
        [
          25,
          1
        ],
        [
          26,
          1
        ],
        [
          27,
          1
        ],
        [
          28,
          1
        ],
        [
          29,
          1
        ],
        [
          30,
          1
        ],
        [
          31,
          1
        ],
        [
          32,
          1
        ],
        [
          33,
          1
        ],
        [
          34,
          1
        ],
        [
          35,
          1
        ],
        [
          36,
          1
        ],
        [
          37,
          1
        ],
        [
          38,
          1
        ],
        [
          39,
          1
        ]
      ],
      "read_ops": 200,
      "reader_count": 4,
      "start_ns": 17645828750,
      "steps": 10,
      "unique_files": 40
    },
    {
      "accesses": 8,
      "after_step": 20,
      "bytes_read": 63401136,
      "dataset": 1,
      "end_ns": 18931722761,
      "evaluation": true,
      "index": 1,
      "order": [
        0,
        2,
        4,
        6,
        1,
        3,
        5,
        7
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ]
      ],
      "read_ops": 40,
      "reader_count": 4,
      "start_ns": 18918676500,
      "steps": 4,
      "unique_files": 8
    },
    {
      "accesses": 40,
      "after_step": 0,
      "bytes_read": 312337845,
      "dataset": 0,
      "end_ns": 19377927170,
      "evaluation": false,
      "index": 2,
      "order": [
        38,
        34,
        4,
        36,
        5,
        39,
        35,
        37,
        28,
        6,
        22,
        29,
        20,
        21,
        7,
        23,
        12,
        13,
        32,
        16,
        10,
        33,
        8,
        17,
        11,
        9,
        0,
        18,
        1,
        19,
        26,
        27,
        30,
        31,
        14,
        15,
        24,
        25,
        2,
        3
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ],
        [
          8,
          1
        ],
        [
          9,
          1
        ],
        [
          10,
          1
        ],
        [
          11,
          1
        ],
        [
          12,
          1
        ],
        [
          13,
          1
        ],
        [
          14,
          1
        ],
        [
          15,
          1
        ],
        [
          16,
          1
        ],
        [
          17,
          1
        ],
        [
          18,
          1
        ],
        [
          19,
          1
        ],
        [
          20,
          1
        ],
        [
          21,
          1
        ],
        [
          22,
          1
        ],
        [
          23,
          1
        ],
        [
          24,
          1
        ],
        [
          25,
          1
        ],
        [
          26,
          1
        ],
        [
          27,
          1
        ],
        [
          28,
          1
        ],
        [
          29,
          1
        ],
        [
          30,
          1
        ],
        [
          31,
          1
        ],
        [
          32,
          1
        ],
        [
          33,
          1
        ],
        [
          34,
          1
        ],
        [
          35,
          1
        ],
        [
          36,
          1
        ],
        [
          37,
          1
        ],
        [
          38,
          1
        ],
        [
          39,
          1
        ]
      ],
      "read_ops": 200,
      "reader_count": 4,
      "start_ns": 19099340375,
      "steps": 10,
      "unique_files": 40
    },
    {
      "accesses": 8,
      "after_step": 30,
      "bytes_read": 63401136,
      "dataset": 1,
      "end_ns": 20343005670,
      "evaluation": true,
      "index": 2,
      "order": [
        0,
        2,
        4,
        1,
        6,
        3,
        5,
        7
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ]
      ],
      "read_ops": 40,
      "reader_count": 4,
      "start_ns": 20328457875,
      "steps": 4,
      "unique_files": 8
    },
    {
      "accesses": 40,
      "after_step": 0,
      "bytes_read": 312337845,
      "dataset": 0,
      "end_ns": 20802570014,
      "evaluation": false,
      "index": 3,
      "order": [
        18,
        30,
        32,
        34,
        19,
        31,
        35,
        33,
        2,
        3,
        10,
        8,
        11,
        9,
        0,
        1,
        26,
        36,
        27,
        38,
        39,
        16,
        17,
        28,
        29,
        37,
        6,
        7,
        24,
        25,
        20,
        21,
        22,
        23,
        4,
        5,
        14,
        15,
        12,
        13
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ],
        [
          8,
          1
        ],
        [
          9,
          1
        ],
        [
          10,
          1
        ],
        [
          11,
          1
        ],
        [
          12,
          1
        ],
        [
          13,
          1
        ],
        [
          14,
          1
        ],
        [
          15,
          1
        ],
        [
          16,
          1
        ],
        [
          17,
          1
        ],
        [
          18,
          1
        ],
        [
          19,
          1
        ],
        [
          20,
          1
        ],
        [
          21,
          1
        ],
        [
          22,
          1
        ],
        [
          23,
          1
        ],
        [
          24,
          1
        ],
        [
          25,
          1
        ],
        [
          26,
          1
        ],
        [
          27,
          1
        ],
        [
          28,
          1
        ],
        [
          29,
          1
        ],
        [
          30,
          1
        ],
        [
          31,
          1
        ],
        [
          32,
          1
        ],
        [
          33,
          1
        ],
        [
          34,
          1
        ],
        [
          35,
          1
        ],
        [
          36,
          1
        ],
        [
          37,
          1
        ],
        [
          38,
          1
        ],
        [
          39,
          1
        ]
      ],
      "read_ops": 200,
      "reader_count": 4,
      "start_ns": 20556730000,
      "steps": 10,
      "unique_files": 40
    },
    {
      "accesses": 8,
      "after_step": 40,
      "bytes_read": 63401136,
      "dataset": 1,
      "end_ns": 21746394049,
      "evaluation": true,
      "index": 3,
      "order": [
        0,
        2,
        4,
        6,
        1,
        3,
        5,
        7
      ],
      "read_counts": [
        [
          0,
          1
        ],
        [
          1,
          1
        ],
        [
          2,
          1
        ],
        [
          3,
          1
        ],
        [
          4,
          1
        ],
        [
          5,
          1
        ],
        [
          6,
          1
        ],
        [
          7,
          1
        ]
      ],
      "read_ops": 40,
      "reader_count": 4,
      "start_ns": 21733664000,
      "steps": 4,
      "unique_files": 8
    }
  ],
  "file_classes": {
    "checkpoint": 1,
    "ignored": 5952,
    "other": 152,
    "shm": 433,
    "train": 40,
    "validation": 8
  },
  "gpu_compute": {
    "busy_steps": 15,
    "copies_per_step": 2,
    "data_wait_s": 0.0,
    "devices": [
      "NVIDIA H200"
    ],
    "driver": "580.159.04",
    "eval_gpu_bound": false,
    "eval_intervals_s": [],
    "eval_step_s": 0.0,
    "eval_steps": 0,
    "gpu_bound": true,
    "intervals_s": [
      0.102427839,
      0.1006298,
      0.1012199978
    ],
    "measured": true,
    "step_s": 0.1012199978,
    "steps": 15
  },
  "hosts": [
    {
      "accelerators": 1,
      "host": "vm",
      "rank": -1,
      "source": ""
    }
  ],
  "lost_events": 0,
  "notes": [
    "batches reach the training loop through a thread of its own process (pin memory): a step starts when its batch has arrived there and the previous step has ended; compute per step is fitted per pass so that the last step ends when that thread exits"
  ],
  "other_files": [
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/.gpu/lib/glibc-hwcaps/x86-64-v4/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/.gpu/lib/glibc-hwcaps/x86-64-v3/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/.gpu/lib/glibc-hwcaps/x86-64-v2/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/.gpu/lib/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/bin/python3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/bin/python3._pth"
    },
    {
      "bytes_read": 0,
      "bytes_written": 349,
      "class": "other",
      "path": "/root/out/logs/segmentation.b.captured.out"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/site-packages"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/local/lib/python3.12/dist-packages"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3/dist-packages"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/dist-packages"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cublas/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cu13/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cublas/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cudnn/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cudnn/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cuda_nvrtc/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cuda_nvrtc/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cuda_runtime/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cuda_runtime/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cuda_cupti/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cuda_cupti/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cufft/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cufft/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/curand/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/curand/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/nvjitlink/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvjitlink/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cusparse/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cusparse/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cusparselt/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cusparselt/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cusolver/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cusolver/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/nccl/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nccl/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/nvshmem/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvshmem/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/cufile/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/cufile/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvidia/nvtx/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests/pytorch/nvtx/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v4/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v3/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/glibc-hwcaps/x86-64-v2/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cudnn/lib/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v4/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v3/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/glibc-hwcaps/x86-64-v2/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nvshmem/lib/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/glibc-hwcaps/x86-64-v4/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/glibc-hwcaps/x86-64-v3/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/glibc-hwcaps/x86-64-v2/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/nccl/lib/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v4/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v3/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/glibc-hwcaps/x86-64-v2/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cusparselt/lib/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/glibc-hwcaps/x86-64-v4/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/glibc-hwcaps/x86-64-v3/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/glibc-hwcaps/x86-64-v2/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12/nvidia/cu13/lib/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/usr"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/tests"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/lib/python3.12"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/etc"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/cuda_injection_path_shm"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/root"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/root/.nv"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/dlgen-replay/kits"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/bin"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/opt/torch/.venv/bin/python"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 4,
      "class": "other",
      "path": "/tmp/rya4441y"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.uMc7tW"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-yex3kofs"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.xz9x7Y"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-qicd1sw7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Q7hjCy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-32dmxo39"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.RSHp14"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-50x25tta"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.B7N8kt"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-918zex1z"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.KmYvJF"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-1ok5lx93"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.uVRQ5T"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-0xlnlunq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Dtatws"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8fugitt6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.t4Vxey"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-6cihcdtp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.X422qT"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-ghjxavgh"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.rg2e75"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-2u2p_peu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.w00PME"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-yq_8qxax"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.IRZCxI"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-5ow8u0p6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.QzmIy4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-f3lxd0q1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.jAqs9d"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-l0zu0bis"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.237NYo"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-a93_fzuk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.a2WZbY"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-5elhtcfe"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.hMFM9w"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-ucv6_unn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.apWncc"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-pebjfq6b"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.whHQVk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-5x3987tm"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1555_2416957145_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1558_1842120323_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1556_1625353454_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1557_1282697092_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1555_2689857497_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1558_148483870_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1556_1765807400_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1557_2386380200_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-dxpwnth1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-dxpwnth1/listener-f1ya6os4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-sgqkr0kx"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-sgqkr0kx/listener-8cpeu2xf"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-096vvld7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-096vvld7/listener-u2cb9o1j"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1555_3131107573_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1556_1582811744_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1557_2857062222_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1558_2818502512_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-c3touaug"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-c3touaug/listener-971hit5j"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1555_1281079705_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1556_1253068564_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1557_1927705319_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1558_157683718_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1555_1437790924_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1555_840653996_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/cudnn_generated_fort_native_sm80_convFwd_knob_21_128x128x16_4_0.cu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/__nv_name_map"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/cudnn_generated_fort_native_sm90_convBwdData_knob_2_128x128x32_5_0.cu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/work/main/cudnn_generated_fort_native_sm90_convBwdFilter_knob_2_128x128x32_5_0.cu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1556_3355889780_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1556_567831086_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.DVTVyY"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-6yu23sla"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.ZzHJZ8"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-dehgb_7_"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.UflW2L"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-caowohoa"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.VTmR85"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-bsjznpxs"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.cj40cH"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-iyupz3sv"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.l6ifyO"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_y38lfwc"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.EeLlwW"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-gpwcjppz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.WvFfx8"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-mmmfhity"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.4gNXBJ"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-xdwqwey5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.SPFU2N"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-zw2utiaq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.2ZwOwR"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-1e459jl8"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.CsY4RP"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-n_d_d9zt"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.YFvYwi"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_ctcbh0c"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.L9x5uW"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-wj6w7m9x"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.uwLcqm"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-opb3f99k"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.o6ud7g"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-kb_j68eg"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.OsAPJ5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-u3hrtwih"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.nrQXbB"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-w2djpw2g"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.y9ucSL"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-3w_wi5b_"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.BArQK1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-oy1ofdyq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1578_3678144639_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1580_1453844381_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1581_2675263505_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1579_3232102208_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1578_2569822020_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1580_592581106_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1581_738041521_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1579_3136452961_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-n5npg68r"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-n5npg68r/listener-fjrschxn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-76p1ec76"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-76p1ec76/listener-zdxjqm4z"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-ikr_rdkq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-ikr_rdkq/listener-w4i_w1q9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-7zvgwkpw"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-7zvgwkpw/listener-y18ni2pn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.IQgYLH"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-293fv_4f"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.n7bbPE"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-0_xdotx9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.c1OLAn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-5fszdwzo"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.mMqkx7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-quzr6al6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.csjuXS"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-qza6s897"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Ll6l1L"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-v8tyt83a"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.6pSVPM"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-6ovss4gv"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.v9cuon"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_nr5h_bo"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.FIGaN7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-ktuyt2j2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.jmE5fe"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-4mc85gvx"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.SlZ1Q4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-etwd91gy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.7TTJgV"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-iv7u8p9r"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.g2Q7yP"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-919qt9io"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.TwAfjt"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8bc0e39g"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.tmGTAQ"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-yw5bfh60"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.RcOy9w"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-2mrj3zig"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.gjikVW"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-soae7i10"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.IZDfZg"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-jfozsygu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.QF2gSa"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-7lt7fp7u"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.R5fjFL"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-tl3fv3jq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1597_4282787702_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1596_1222081613_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1599_233373370_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1598_3648675148_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1599_2636731645_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1597_3483935008_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1596_1526065960_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1598_1629655777_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-7ovzqf8i"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-7ovzqf8i/listener-tqbyroxo"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-pfqry8vp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-pfqry8vp/listener-qkmgl8xy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-ab09z542"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-ab09z542/listener-17zucja0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-kwjofkwl"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-kwjofkwl/listener-_6lvpj0m"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1599_2222237951_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1597_1120082370_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1599_4248932319_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1596_198827703_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1597_1194912212_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1596_2016673798_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1598_834669633_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1598_3071090634_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1596_3916996459_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1596_3251736262_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1597_2915031826_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1597_2339626895_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.rCu6k4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-na2o1wkr"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.U6Ef33"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_jqo0e31"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.cRllPv"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8ixpzwl_"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.73wShL"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-f__h9d1b"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.p0Dja9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-mg6jdry6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.gwaeFS"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-l68fm2f0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.2iCpbk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-s9gjinue"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.HyH0FU"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-zoepcv69"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.lxGT4X"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-yypjz4a1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.yscaUJ"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-62lrnltj"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.TyJwnk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-m3j0kdsf"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.zFW9Kc"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_0k8c5c7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Chxl6j"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-pqzw9kd3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.f90Zqv"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-z3z03aio"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.njoKcM"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-6iwksddk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.GiVeMX"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-f7qsm97r"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.wM36SP"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-f39x0age"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.PgmnXr"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-syykljbx"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.DzMvPO"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-9j8_ypbd"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.wYAWwn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-vicdocx3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1614_606270631_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1615_4150129830_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1616_2430328868_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1617_3521519423_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1614_1744405406_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1615_1412839757_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1616_585999806_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1617_1602281178_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-96as6sow"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-96as6sow/listener-y9vwg6gk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-bovt_qu6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-bovt_qu6/listener-xni2qdxb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-y7l2tapu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-y7l2tapu/listener-76zt2xs5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-ra8163c9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-ra8163c9/listener-uljmqswa"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.W2Q2Eu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-xg3m0erb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.LrbPzy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-t6eoj817"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.4l6dnn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_9u1mrdf"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.xGt2CL"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-evabgkbm"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.CTXxPN"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-mjfj_xo8"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.QEd4CY"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-5fng0rhb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.3EtIQn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-0yx5louj"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.t0H7LU"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-3uadn200"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Jnwvh9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-0gppjteb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.xwtV83"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-bowrmchk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.gwJ1cN"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-e3hwez6f"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.WM9gkO"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-f8ad6ff4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.PrGamp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-n6wq_e1q"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Dsutvm"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-3p0y1q9z"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.dKNYe5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-59zfyn26"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.XUM8gX"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-56iqei4z"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.LiMixr"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-mfbkumdh"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.RJ2gUz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-jfjn9akd"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.IoKvD1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-i8cloeju"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.xhC4rH"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8qsajgy6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1634_3008744481_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1633_2407675266_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1635_3275816272_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1632_128023291_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1634_3063766228_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1633_2510322596_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1635_1121420292_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1632_489809809_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-r5ny8z3w"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-r5ny8z3w/listener-um_fgr7i"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-tg_3z1va"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-tg_3z1va/listener-ete48p4r"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-db_7qm1e"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-db_7qm1e/listener-rk0oia32"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1634_2587112937_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-j2hn05zk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-j2hn05zk/listener-3wl_b_2s"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1635_2246185329_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1633_1140985439_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1634_3288847698_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1632_762881968_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1635_3777885300_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1633_1294524276_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1632_1005576642_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1632_3837834302_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1632_1838749701_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1633_647230025_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1633_1012970911_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Taputm"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_mx1_90b"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.hFEp5H"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-zckbr7tz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.SHtjwM"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8hp3ipmz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.wzkbSM"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-3jgnp8wy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.NPFjXZ"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-fthuzb9n"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.unCk2t"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-i5i880yg"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.E9YEdT"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-gl8tja4m"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.5GGFDN"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-nbqo2bbf"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.6cA11C"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-mn9vd3ik"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.5iHhel"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-9myqmnt9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.lEaugL"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-x2q021_c"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.LmOYTn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-gqclkhv3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.EOAeef"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-b3fyblzj"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.pafnaB"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-cy_95b7v"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.JQRnMn"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-z95_tfi6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.8IWxoM"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-wd_ofa4l"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.DQq6tM"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-fy7otusy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.t1OU13"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8nnbfvja"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.NcGfjb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-bbonzp6w"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.kHiLgz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-7ibp92uu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1650_616064663_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1651_479941578_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1652_1055849982_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1651_3680034794_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1650_836324641_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1653_2354084241_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1652_23632893_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1653_3906791898_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-acmi8da4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-acmi8da4/listener-695x21nu"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-wqvjjjix"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-wqvjjjix/listener-0hnoi7rq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-vkh25ots"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-vkh25ots/listener-8l0qtgro"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-m0xriiq5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-m0xriiq5/listener-dta0bwfo"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.Aw22WH"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_wzjojn3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.ANq1Xw"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-4hfqxglh"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.dUU7gO"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-vlylppt4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.7F2ekP"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-ej4j_lna"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.pwTnqP"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-w8tok1nx"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.krnGTI"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-ql3qtyrs"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.pYcMew"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-1smimpr9"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.HtqaUI"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-wwnlbe2b"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.zr06ph"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-xs1j3_0x"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.rAIjmg"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-kje1ox3f"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.k23mQt"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-k7tbdvnq"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.J4FIHz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-klga_x0q"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.jlkvOV"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-vra0h7re"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.XhsSRp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-g_thkfwk"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.uZgGrp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-sr7uktp_"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.iZa4vs"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-k_exjsxp"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.0vFqQh"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-16cum_7o"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.L9CpR1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-gbwyur0v"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.ns1Z3a"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-z2qnmr81"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.bbylfD"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-vrsasav_"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1668_3788199784_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1671_3031152355_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1670_731383299_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1668_3817813501_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1671_3432771429_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1670_2617778507_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1669_2370941742_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1669_1393432596_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-x2yvxe8r"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-x2yvxe8r/listener-r06ox4kz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-kedv6kt5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-kedv6kt5/listener-zmsiwys6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-qq4m0kq7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-qq4m0kq7/listener-ecoi21c7"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1668_3981700794_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1671_1120490863_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-v5rlol88"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-v5rlol88/listener-y9ir157a"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1668_3713049587_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1671_3168370222_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1670_3304822689_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1670_1189358804_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1669_3173656261_2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1669_3057968430_3"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1668_3446594941_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1668_3417464538_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1669_2933248134_4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1669_1229236895_5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.kGhCV1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-xtpxp5wt"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.FXgLIc"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-althd0u6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.DubNh2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-yjjrzu8v"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.clBVZl"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-4oen7qkd"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.vq5n9v"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-z42lgkie"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.vS1LD2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-qt0deiv4"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.wsmiMy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-sh1u5det"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.2Ycr7D"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-iax4oywz"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.GZONvG"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-nd8vez93"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.ph54No"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-8ru4ff5d"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.e4uDbw"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-p6wosvc6"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.XDmpPy"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-qxnkrey_"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.YyxXST"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-857pgkk8"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.AirzML"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-__15ubsb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.VvTds8"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-ydy8rnzw"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.CnqnxB"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-_k82ee23"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.X2ukHa"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-x6ak2aie"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.SwsncE"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-jcjt79eo"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.OkWPRb"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-6lddhgqj"
    },
    {
      "bytes_read": 0,
      "bytes_written": 32,
      "class": "shm",
      "path": "/dev/shm/sem.T43JLW"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "shm",
      "path": "/dev/shm/sem.mp-d_2dvdpd"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1687_4021635391_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1686_2031185289_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1688_1540348157_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1687_1049195161_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1689_694985255_0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1686_530742885_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1688_3592446095_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 1,
      "class": "shm",
      "path": "/dev/shm/torch_1689_2526135464_1"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-3f5w8j76"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-3f5w8j76/listener-546whrb0"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-1tmgtry2"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-1tmgtry2/listener-d67_x7nf"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-b1udm3eh"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-b1udm3eh/listener-a36baxfc"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-lh4mpok5"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/pymp-lh4mpok5/listener-c803qf16"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/dlgen-replay/checkpoints"
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "class": "other",
      "path": "/tmp/dlgen-replay/checkpoints/seg.again"
    },
    {
      "bytes_read": 0,
      "bytes_written": 249567909,
      "class": "checkpoint",
      "path": "/tmp/dlgen-replay/checkpoints/seg.again/unet3d.pt"
    }
  ],
  "per_second": [
    {
      "bytes_read": 5454800,
      "bytes_written": 0,
      "read_ops": 325,
      "write_ops": 0
    },
    {
      "bytes_read": 7745573,
      "bytes_written": 0,
      "read_ops": 468,
      "write_ops": 0
    },
    {
      "bytes_read": 5656904,
      "bytes_written": 0,
      "read_ops": 398,
      "write_ops": 0
    },
    {
      "bytes_read": 1817066,
      "bytes_written": 23,
      "read_ops": 212,
      "write_ops": 2
    },
    {
      "bytes_read": 4172216,
      "bytes_written": 102,
      "read_ops": 257,
      "write_ops": 12
    },
    {
      "bytes_read": 3551505,
      "bytes_written": 0,
      "read_ops": 147,
      "write_ops": 0
    },
    {
      "bytes_read": 4626572,
      "bytes_written": 0,
      "read_ops": 223,
      "write_ops": 0
    },
    {
      "bytes_read": 4456340,
      "bytes_written": 0,
      "read_ops": 322,
      "write_ops": 0
    },
    {
      "bytes_read": 3961783,
      "bytes_written": 4,
      "read_ops": 139,
      "write_ops": 1
    },
    {
      "bytes_read": 281576842,
      "bytes_written": 9882,
      "read_ops": 671,
      "write_ops": 183
    },
    {
      "bytes_read": 3843928,
      "bytes_written": 0,
      "read_ops": 180,
      "write_ops": 0
    },
    {
      "bytes_read": 824642,
      "bytes_written": 0,
      "read_ops": 40,
      "write_ops": 0
    },
    {
      "bytes_read": 1409334,
      "bytes_written": 0,
      "read_ops": 60,
      "write_ops": 0
    },
    {
      "bytes_read": 4702050,
      "bytes_written": 0,
      "read_ops": 204,
      "write_ops": 0
    },
    {
      "bytes_read": 3459984,
      "bytes_written": 0,
      "read_ops": 144,
      "write_ops": 0
    },
    {
      "bytes_read": 32609907,
      "bytes_written": 1086,
      "read_ops": 52,
      "write_ops": 22
    },
    {
      "bytes_read": 66660698,
      "bytes_written": 4784,
      "read_ops": 427,
      "write_ops": 97
    },
    {
      "bytes_read": 315566469,
      "bytes_written": 11010,
      "read_ops": 778,
      "write_ops": 209
    },
    {
      "bytes_read": 64312668,
      "bytes_written": 4814,
      "read_ops": 318,
      "write_ops": 99
    },
    {
      "bytes_read": 313255533,
      "bytes_written": 11039,
      "read_ops": 670,
      "write_ops": 211
    },
    {
      "bytes_read": 377568201,
      "bytes_written": 15793,
      "read_ops": 988,
      "write_ops": 306
    },
    {
      "bytes_read": 64314049,
      "bytes_written": 131768605,
      "read_ops": 331,
      "write_ops": 139
    },
    {
      "bytes_read": 244801,
      "bytes_written": 117816684,
      "read_ops": 4,
      "write_ops": 23
    },
    {
      "bytes_read": 0,
      "bytes_written": 0,
      "read_ops": 0,
      "write_ops": 0
    }
  ],
  "prefetch": 2,
  "processes": [
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 56,
      "is_thread": false,
      "pid": 1527,
      "ppid": 1523,
      "read_ops": 0,
      "role": "main",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1531,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1532,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1533,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1534,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1535,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1536,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1537,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1538,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1539,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1540,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1541,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1542,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1543,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1544,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1545,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "cuda00001400006",
      "handovers": 0,
      "is_thread": true,
      "pid": 1546,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "cuda-EvtHandlr",
      "handovers": 0,
      "is_thread": true,
      "pid": 1550,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 92771899,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1555,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1555
    },
    {
      "accelerator": 0,
      "bytes_read": 92495129,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1556,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1556
    },
    {
      "accelerator": 0,
      "bytes_read": 67154851,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1557,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1557
    },
    {
      "accelerator": 0,
      "bytes_read": 59915966,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1558,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1558
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1559,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1560,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1561,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1562,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1563,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1564,
      "ppid": 1555,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1555
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1565,
      "ppid": 1555,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1555
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1566,
      "ppid": 1558,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1558
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1567,
      "ppid": 1556,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1556
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1568,
      "ppid": 1558,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1558
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1569,
      "ppid": 1556,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1556
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1570,
      "ppid": 1557,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1557
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1571,
      "ppid": 1557,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1557
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_autograd_0",
      "handovers": 0,
      "is_thread": true,
      "pid": 1572,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1577,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 13322004,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1578,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1578
    },
    {
      "accelerator": 0,
      "bytes_read": 17495524,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1579,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1579
    },
    {
      "accelerator": 0,
      "bytes_read": 17902204,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1580,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1580
    },
    {
      "accelerator": 0,
      "bytes_read": 14681404,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1581,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1581
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1582,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1583,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1584,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1585,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1586,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1587,
      "ppid": 1578,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1578
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1588,
      "ppid": 1578,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1578
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1589,
      "ppid": 1581,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1581
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1590,
      "ppid": 1581,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1581
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1591,
      "ppid": 1580,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1580
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1592,
      "ppid": 1580,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1580
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1593,
      "ppid": 1579,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1579
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1594,
      "ppid": 1579,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1579
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1595,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 91402919,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1596,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1596
    },
    {
      "accelerator": 0,
      "bytes_read": 92748384,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1597,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1597
    },
    {
      "accelerator": 0,
      "bytes_read": 64252876,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1598,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1598
    },
    {
      "accelerator": 0,
      "bytes_read": 63933666,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1599,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1599
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1600,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1601,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1602,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1603,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1604,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1605,
      "ppid": 1599,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1599
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1606,
      "ppid": 1599,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1599
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1607,
      "ppid": 1597,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1597
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1608,
      "ppid": 1596,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1596
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1609,
      "ppid": 1597,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1597
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1610,
      "ppid": 1596,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1596
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1611,
      "ppid": 1598,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1598
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1612,
      "ppid": 1598,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1598
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1613,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 13322004,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1614,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1614
    },
    {
      "accelerator": 0,
      "bytes_read": 17495524,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1615,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1615
    },
    {
      "accelerator": 0,
      "bytes_read": 17902204,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1616,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1616
    },
    {
      "accelerator": 0,
      "bytes_read": 14681404,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1617,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1617
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1618,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1619,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1620,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1621,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1622,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1623,
      "ppid": 1614,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1614
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1624,
      "ppid": 1614,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1614
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1625,
      "ppid": 1615,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1615
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1626,
      "ppid": 1616,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1616
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1627,
      "ppid": 1615,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1615
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1628,
      "ppid": 1616,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1616
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1629,
      "ppid": 1617,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1617
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1630,
      "ppid": 1617,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1617
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1631,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 92874149,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1632,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1632
    },
    {
      "accelerator": 0,
      "bytes_read": 95558974,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1633,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1633
    },
    {
      "accelerator": 0,
      "bytes_read": 63465376,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1634,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1634
    },
    {
      "accelerator": 0,
      "bytes_read": 60439346,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1635,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1635
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1636,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1637,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1638,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1639,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1640,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1641,
      "ppid": 1634,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1634
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1642,
      "ppid": 1633,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1633
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1643,
      "ppid": 1633,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1633
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1644,
      "ppid": 1635,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1635
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1645,
      "ppid": 1632,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1632
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1646,
      "ppid": 1635,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1635
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1647,
      "ppid": 1632,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1632
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1648,
      "ppid": 1634,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1634
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1649,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 13322004,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1650,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1650
    },
    {
      "accelerator": 0,
      "bytes_read": 17495524,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1651,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1651
    },
    {
      "accelerator": 0,
      "bytes_read": 17902204,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1652,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1652
    },
    {
      "accelerator": 0,
      "bytes_read": 14681404,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1653,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1653
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1654,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1655,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1656,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1657,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1658,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1659,
      "ppid": 1651,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1651
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1660,
      "ppid": 1651,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1651
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1661,
      "ppid": 1650,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1650
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1662,
      "ppid": 1650,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1650
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1663,
      "ppid": 1652,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1652
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1664,
      "ppid": 1652,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1652
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1665,
      "ppid": 1653,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1653
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1666,
      "ppid": 1653,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1653
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1667,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 94856434,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1668,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1668
    },
    {
      "accelerator": 0,
      "bytes_read": 97857284,
      "comm": "pt_data_worker",
      "handovers": 3,
      "is_thread": false,
      "pid": 1669,
      "ppid": 1527,
      "read_ops": 60,
      "role": "reader_worker",
      "samples_read": 12,
      "tgid": 1669
    },
    {
      "accelerator": 0,
      "bytes_read": 60961891,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1670,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1670
    },
    {
      "accelerator": 0,
      "bytes_read": 58662236,
      "comm": "pt_data_worker",
      "handovers": 2,
      "is_thread": false,
      "pid": 1671,
      "ppid": 1527,
      "read_ops": 40,
      "role": "reader_worker",
      "samples_read": 8,
      "tgid": 1671
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1672,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1673,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1674,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1675,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1676,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1677,
      "ppid": 1668,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1668
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1678,
      "ppid": 1670,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1670
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1679,
      "ppid": 1668,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1668
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1680,
      "ppid": 1671,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1671
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1681,
      "ppid": 1671,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1671
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1682,
      "ppid": 1670,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1670
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1683,
      "ppid": 1669,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1669
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1684,
      "ppid": 1669,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1669
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1685,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 13322004,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1686,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1686
    },
    {
      "accelerator": 0,
      "bytes_read": 17495524,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1687,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1687
    },
    {
      "accelerator": 0,
      "bytes_read": 17902204,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1688,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1688
    },
    {
      "accelerator": 0,
      "bytes_read": 14681404,
      "comm": "pt_data_worker",
      "handovers": 1,
      "is_thread": false,
      "pid": 1689,
      "ppid": 1527,
      "read_ops": 10,
      "role": "reader_worker",
      "samples_read": 2,
      "tgid": 1689
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_pin",
      "handovers": 0,
      "is_thread": true,
      "pid": 1690,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1691,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1692,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1693,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1694,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1695,
      "ppid": 1687,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1687
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1696,
      "ppid": 1687,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1687
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1697,
      "ppid": 1686,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1686
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1698,
      "ppid": 1686,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1686
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1699,
      "ppid": 1688,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1688
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1700,
      "ppid": 1688,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1688
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1701,
      "ppid": 1689,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1689
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "pt_data_worker",
      "handovers": 0,
      "is_thread": true,
      "pid": 1702,
      "ppid": 1689,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1689
    },
    {
      "accelerator": 0,
      "bytes_read": 0,
      "comm": "python3",
      "handovers": 0,
      "is_thread": true,
      "pid": 1703,
      "ppid": 1527,
      "read_ops": 0,
      "role": "other",
      "samples_read": 0,
      "tgid": 1527
    }
  ],
  "request_sizes": [
    [
      128,
      196
    ],
    [
      224,
      4
    ],
    [
      388,
      4
    ],
    [
      404,
      4
    ],
    [
      416,
      4
    ],
    [
      496,
      4
    ],
    [
      542,
      4
    ],
    [
      544,
      4
    ],
    [
      582,
      4
    ],
    [
      768,
      4
    ],
    [
      808,
      4
    ],
    [
      832,
      4
    ],
    [
      904,
      4
    ],
    [
      924,
      4
    ],
    [
      936,
      4
    ],
    [
      1152,
      4
    ],
    [
      1168,
      4
    ],
    [
      1221,
      4
    ],
    [
      1244,
      4
    ],
    [
      1296,
      4
    ],
    [
      1693,
      4
    ],
    [
      1744,
      4
    ],
    [
      1784,
      4
    ],
    [
      1792,
      4
    ],
    [
      1932,
      4
    ],
    [
      1944,
      4
    ],
    [
      1980,
      4
    ],
    [
      2176,
      4
    ],
    [
      2200,
      4
    ],
    [
      2292,
      4
    ],
    [
      2488,
      4
    ],
    [
      2639,
      4
    ],
    [
      2688,
      4
    ],
    [
      2848,
      4
    ],
    [
      2944,
      4
    ],
    [
      3020,
      4
    ],
    [
      3128,
      4
    ],
    [
      3232,
      4
    ],
    [
      3248,
      4
    ],
    [
      3272,
      4
    ],
    [
      3312,
      4
    ],
    [
      3402,
      4
    ],
    [
      3492,
      4
    ],
    [
      3504,
      4
    ],
    [
      3604,
      4
    ],
    [
      3712,
      4
    ],
    [
      3790,
      4
    ],
    [
      3936,
      4
    ],
    [
      4096,
      384
    ],
    [
      2658304,
      4
    ],
    [
      2678784,
      4
    ],
    [
      2723840,
      4
    ],
    [
      2756608,
      4
    ],
    [
      2805760,
      4
    ],
    [
      2875392,
      4
    ],
    [
      2920448,
      4
    ],
    [
      2928640,
      4
    ],
    [
      2949120,
      4
    ],
    [
      2977792,
      4
    ],
    [
      2981888,
      4
    ],
    [
      3043328,
      4
    ],
    [
      3080192,
      4
    ],
    [
      3125248,
      4
    ],
    [
      3186688,
      4
    ],
    [
      3215360,
      4
    ],
    [
      3276800,
      4
    ],
    [
      3301376,
      4
    ],
    [
      3342336,
      4
    ],
    [
      3489792,
      4
    ],
    [
      3522560,
      4
    ],
    [
      3571712,
      4
    ],
    [
      3764224,
      4
    ],
    [
      3788800,
      4
    ],
    [
      10645504,
      4
    ],
    [
      10727424,
      4
    ],
    [
      10907648,
      4
    ],
    [
      11038720,
      4
    ],
    [
      11247616,
      4
    ],
    [
      11517952,
      4
    ],
    [
      11694080,
      4
    ],
    [
      11730944,
      4
    ],
    [
      11821056,
      4
    ],
    [
      11935744,
      4
    ],
    [
      11948032,
      4
    ],
    [
      12189696,
      4
    ],
    [
      12341248,
      4
    ],
    [
      12513280,
      4
    ],
    [
      12759040,
      4
    ],
    [
      12877824,
      4
    ],
    [
      13119488,
      4
    ],
    [
      13225984,
      4
    ],
    [
      13381632,
      4
    ],
    [
      13983744,
      4
    ],
    [
      14114816,
      4
    ],
    [
      14307328,
      4
    ],
    [
      15073280,
      4
    ],
    [
      15179776,
      4
    ]
  ],
  "restore_bytes": 0,
  "restore_read_sizes": [],
  "step_time_s": {
    "count": 40,
    "max": 6.166704205,
    "mean": 0.24485410525000004,
    "min": 0.016224875,
    "p50": 0.10039525,
    "p90": 0.22785238750000003,
    "p99": 3.8509513512999964,
    "stdev": 0.9622825385897198
  },
  "steps": [
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 96160750,
      "end_ns": 15393915625,
      "epoch": 0,
      "start_ns": 9227211420,
      "wait_ns": 6070543455
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100957500,
      "end_ns": 15494873125,
      "epoch": 0,
      "start_ns": 15393915625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 16518250,
      "end_ns": 15511391375,
      "epoch": 0,
      "start_ns": 15494873125,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 56282000,
      "end_ns": 15567673375,
      "epoch": 0,
      "start_ns": 15511391375,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100722500,
      "end_ns": 15668395875,
      "epoch": 0,
      "start_ns": 15567673375,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 228623125,
      "end_ns": 15897019000,
      "epoch": 0,
      "start_ns": 15668395875,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 16224875,
      "end_ns": 15913243875,
      "epoch": 0,
      "start_ns": 15897019000,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 56586875,
      "end_ns": 15969830750,
      "epoch": 0,
      "start_ns": 15913243875,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100786625,
      "end_ns": 16070617375,
      "epoch": 0,
      "start_ns": 15969830750,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 96160750,
      "end_ns": 16171788875,
      "epoch": 0,
      "start_ns": 16070617375,
      "wait_ns": 5010750
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 8497375,
      "end_ns": 17540117625,
      "epoch": 1,
      "start_ns": 16432948353,
      "wait_ns": 1098671897
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 4856250,
      "end_ns": 17544973875,
      "epoch": 1,
      "start_ns": 17540117625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 4340625,
      "end_ns": 17549314500,
      "epoch": 1,
      "start_ns": 17544973875,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 4927375,
      "end_ns": 17554241875,
      "epoch": 1,
      "start_ns": 17549314500,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 130484500,
      "end_ns": 17920494500,
      "epoch": 2,
      "start_ns": 17720698555,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 38207750,
      "end_ns": 17958702250,
      "epoch": 2,
      "start_ns": 17920494500,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 53184000,
      "end_ns": 18011886250,
      "epoch": 2,
      "start_ns": 17958702250,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 92392000,
      "end_ns": 18104278250,
      "epoch": 2,
      "start_ns": 18011886250,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100761875,
      "end_ns": 18205040125,
      "epoch": 2,
      "start_ns": 18104278250,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 227766750,
      "end_ns": 18432806875,
      "epoch": 2,
      "start_ns": 18205040125,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 26512125,
      "end_ns": 18459319000,
      "epoch": 2,
      "start_ns": 18432806875,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 49160750,
      "end_ns": 18508479750,
      "epoch": 2,
      "start_ns": 18459319000,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 99929500,
      "end_ns": 18608409250,
      "epoch": 2,
      "start_ns": 18508479750,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 96160750,
      "end_ns": 18709352250,
      "epoch": 2,
      "start_ns": 18608409250,
      "wait_ns": 4782250
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 8497375,
      "end_ns": 18987370250,
      "epoch": 3,
      "start_ns": 18960761488,
      "wait_ns": 18111387
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 13626500,
      "end_ns": 19000996750,
      "epoch": 3,
      "start_ns": 18987370250,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 6717750,
      "end_ns": 19007714500,
      "epoch": 3,
      "start_ns": 19000996750,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 7016875,
      "end_ns": 19014731375,
      "epoch": 3,
      "start_ns": 19007714500,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 101192375,
      "end_ns": 19359693125,
      "epoch": 4,
      "start_ns": 19182116116,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 29278500,
      "end_ns": 19388971625,
      "epoch": 4,
      "start_ns": 19359693125,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 43660625,
      "end_ns": 19432632250,
      "epoch": 4,
      "start_ns": 19388971625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100614500,
      "end_ns": 19533246750,
      "epoch": 4,
      "start_ns": 19432632250,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100170250,
      "end_ns": 19633417000,
      "epoch": 4,
      "start_ns": 19533246750,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 228876375,
      "end_ns": 19862293375,
      "epoch": 4,
      "start_ns": 19633417000,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 19121250,
      "end_ns": 19881414625,
      "epoch": 4,
      "start_ns": 19862293375,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 53813500,
      "end_ns": 19935228125,
      "epoch": 4,
      "start_ns": 19881414625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100410750,
      "end_ns": 20035638875,
      "epoch": 4,
      "start_ns": 19935228125,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 96160750,
      "end_ns": 20136935500,
      "epoch": 4,
      "start_ns": 20035638875,
      "wait_ns": 5135875
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 17941500,
      "end_ns": 20409654875,
      "epoch": 5,
      "start_ns": 20368800975,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 14912125,
      "end_ns": 20424567000,
      "epoch": 5,
      "start_ns": 20409654875,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 7304625,
      "end_ns": 20431871625,
      "epoch": 5,
      "start_ns": 20424567000,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 8431500,
      "end_ns": 20440303125,
      "epoch": 5,
      "start_ns": 20431871625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 96160750,
      "end_ns": 20764170500,
      "epoch": 6,
      "start_ns": 20638562449,
      "wait_ns": 29447301
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 35857000,
      "end_ns": 20800027500,
      "epoch": 6,
      "start_ns": 20764170500,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 40329625,
      "end_ns": 20840357125,
      "epoch": 6,
      "start_ns": 20800027500,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100481750,
      "end_ns": 20940838875,
      "epoch": 6,
      "start_ns": 20840357125,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100379750,
      "end_ns": 21041218625,
      "epoch": 6,
      "start_ns": 20940838875,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 228778750,
      "end_ns": 21269997375,
      "epoch": 6,
      "start_ns": 21041218625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 16653250,
      "end_ns": 21286650625,
      "epoch": 6,
      "start_ns": 21269997375,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 56228375,
      "end_ns": 21342879000,
      "epoch": 6,
      "start_ns": 21286650625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 100459875,
      "end_ns": 21443338875,
      "epoch": 6,
      "start_ns": 21342879000,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 96160750,
      "end_ns": 21544676125,
      "epoch": 6,
      "start_ns": 21443338875,
      "wait_ns": 5176500
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 15236500,
      "end_ns": 21812779625,
      "epoch": 7,
      "start_ns": 21773126648,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 9690125,
      "end_ns": 21822469750,
      "epoch": 7,
      "start_ns": 21812779625,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": true,
      "compute_ns": 6943125,
      "end_ns": 21829412875,
      "epoch": 7,
      "start_ns": 21822469750,
      "wait_ns": 0
    },
    {
      "accelerator": 0,
      "compute_measured": false,
      "compute_ns": 7104000,
      "end_ns": 21836516875,
      "epoch": 7,
      "start_ns": 21829412875,
      "wait_ns": 0
    }
  ],
  "totals": {
    "block_bytes": 0,
    "block_requests": 0,
    "bytes_read": 1571791865,
    "bytes_written": 249643826,
    "dataset_bytes_read": 1502955924,
    "dataset_read_ops": 960,
    "opens": 5891,
    "read_ops": 7358,
    "stats": 34267,
    "write_ops": 1304
  }
}
exit 0
