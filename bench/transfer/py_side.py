"""One side of make bench-transfer (bench/transfer/run.py) in Python: a file
up to S3 or an object down into a file through boto3's upload_file /
download_file (s3transfer) or smithycurl's client.s3, 8 MiB parts, 10 at
once for both. Prints the seconds the transfer took.

    py_side.py boto3|smithycurl up|down ENDPOINT S3MODEL BUCKET KEY FILE
    py_side.py boto3 mkbucket|delete ENDPOINT S3MODEL BUCKET KEY -   (the runner's set-up)
"""

from __future__ import annotations

import os
import sys
import time

KEY, SECRET, REGION = "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1"
PART, CONCURRENCY = 8 << 20, 10


def main() -> None:
    who, direction, endpoint, model_path, bucket, key, path = sys.argv[1:8]
    if who == "boto3":
        import boto3
        from boto3.s3.transfer import TransferConfig
        from botocore.config import Config

        b3 = boto3.client("s3", endpoint_url=endpoint, region_name=REGION, aws_access_key_id=KEY,
                          aws_secret_access_key=SECRET, config=Config(s3={"addressing_style": "path"}))
        cfg = TransferConfig(multipart_threshold=PART, multipart_chunksize=PART, max_concurrency=CONCURRENCY)
        t0 = time.monotonic()
        if direction == "mkbucket":  # the runner's set-up and clean-up
            try:
                b3.create_bucket(Bucket=bucket)
            except (b3.exceptions.BucketAlreadyOwnedByYou, b3.exceptions.BucketAlreadyExists):
                pass
        elif direction == "delete":
            b3.delete_object(Bucket=bucket, Key=key)
        elif direction == "up":
            b3.upload_file(path, bucket, key, Config=cfg)
        else:
            b3.download_file(bucket, key, path, Config=cfg)
    else:
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python"))
        import smithycurl

        model = smithycurl.load_model(model_path)
        creds = {"access_key_id": KEY, "secret_access_key": SECRET, "region": REGION}
        with model.client(endpoint=endpoint, aws_credentials=creds) as s3:
            t0 = time.monotonic()
            if direction == "up":
                s3.s3.upload_file(path, bucket, key, part_size=PART, threshold=PART, concurrency=CONCURRENCY)
            else:
                s3.s3.download_file(bucket, key, path, part_size=PART, concurrency=CONCURRENCY)
    print(f"{time.monotonic() - t0:.3f}")


if __name__ == "__main__":
    main()
