#!/usr/bin/python3
"""An independent S3 client for dlgen's tests (boto3, python3-boto3): what dlgen wrote, seen by
another client. Endpoint and credentials from the AWS_* environment; path-style addressing.

  s3_check.py mb BUCKET              create the bucket (no error when it is there)
  s3_check.py put BUCKET KEY SIZE    write SIZE bytes (byte i = i % 251) as KEY
  s3_check.py verify BUCKET KEY SIZE print "ok" when KEY holds SIZE bytes of that pattern
  s3_check.py stat BUCKET KEY        print "SIZE MD5" of the object (exit 3 when missing)
  s3_check.py ls BUCKET PREFIX       print "KEY SIZE" of every object under PREFIX
  s3_check.py uploads BUCKET         print the multipart uploads in progress, one a line
  s3_check.py etag BUCKET KEY        print the object's ETag (a multipart upload's ends "-PARTS")
  s3_check.py rm BUCKET KEY          delete the object
"""
import hashlib
import os
import sys

import boto3
import botocore.config


def client():
    return boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                        region_name=os.environ.get("AWS_REGION", "us-east-1"),
                        config=botocore.config.Config(s3={"addressing_style": "path"}))


def main(a):
    s3 = client()
    if a[0] == "mb":
        try:
            s3.create_bucket(Bucket=a[1])
        except s3.exceptions.BucketAlreadyOwnedByYou:
            pass
    elif a[0] == "put":
        n = int(a[3])
        s3.put_object(Bucket=a[1], Key=a[2], Body=bytes(i % 251 for i in range(n)))
    elif a[0] == "verify":
        body = s3.get_object(Bucket=a[1], Key=a[2])["Body"].read()
        n = int(a[3])
        if len(body) != n:
            print("size %d, expected %d" % (len(body), n))
        else:
            bad = next((i for i in range(n) if body[i] != i % 251), None)
            print("ok" if bad is None else "byte %d is %d, expected %d" % (bad, body[bad], bad % 251))
    elif a[0] == "stat":
        try:
            body = s3.get_object(Bucket=a[1], Key=a[2])["Body"].read()
        except s3.exceptions.NoSuchKey:
            return 3
        print(len(body), hashlib.md5(body).hexdigest())
    elif a[0] == "ls":
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=a[1], Prefix=a[2]):
            for o in page.get("Contents", []):
                print(o["Key"], o["Size"])
    elif a[0] == "uploads":
        for u in s3.list_multipart_uploads(Bucket=a[1]).get("Uploads", []):
            print(u["Key"], u["UploadId"])
    elif a[0] == "etag":
        print(s3.head_object(Bucket=a[1], Key=a[2])["ETag"].strip('"'))
    elif a[0] == "rm":
        s3.delete_object(Bucket=a[1], Key=a[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
