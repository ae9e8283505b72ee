"""The requests of the service's automation example `non_vaded_flow.py` (its published automation
examples), made with the same library it uses, `requests`. The script itself is not shipped with
any package these machines can install, so this file sends what it sends, in our own code: log in
with the client credentials, ask for an upload grant WITHOUT txn_id (the service assigns one), post
each audio file to storage with `key` set to folderPath + name, start WITHOUT model_type and
WITHOUT client_generated_files, then read the status until it is no longer 202.

Env: BASE_URL, CLIENT_ID, CLIENT_SECRET, AUDIO_FILES (paths separated by os.pathsep).
Prints one JSON line per step: {"step", "status", ...}; exits 1 at the first unexpected answer.
"""
import base64
import json
import os
import sys

import requests

base = os.environ["BASE_URL"]
session = requests.Session()


def report(step, response, **extra):
    print(json.dumps({"step": step, "status": response.status_code, **extra}), flush=True)


def expect(step, response, status, **extra):
    report(step, response, **extra)
    if response.status_code != status:
        print(json.dumps({"step": step, "body": response.text[:500]}), flush=True)
        sys.exit(1)


login = session.post(
    f"{base}/connect-auth/v1/account/login",
    json={"client_id": os.environ["CLIENT_ID"], "client_secret": os.environ["CLIENT_SECRET"]},
)
expect("login", login, 200)
headers = {"Authorization": f"Bearer {login.json()['access_token']}"}

grant = session.post(f"{base}/v1/file-upload", params={"action": "ekascribe-v2"}, headers=headers)
expect("grant without txn_id", grant, 200)
grant_body = grant.json()
txn_id = grant_body["txn_id"]
upload_data = grant_body["uploadData"]
folder_path = grant_body["folderPath"]

for path in os.environ["AUDIO_FILES"].split(os.pathsep):
    name = os.path.basename(path)
    upload_data["fields"]["key"] = folder_path + name
    with open(path, "rb") as audio:
        stored = session.post(upload_data["url"], data=upload_data["fields"], files={"file": (name, audio)})
    expect(f"upload {name}", stored, 204)

start = session.post(
    f"{base}/voice/api/v2/transaction/init/{txn_id}",
    headers=headers,
    json={
        "mode": "dictation",
        "transfer": "non-vaded",
        "batch_s3_url": upload_data["url"] + folder_path,
        "input_language": ["en-IN"],
        "output_format_template": [{"template_id": "clinical_notes_template"}],
        "additional_data": {"source": "non_vaded_flow"},
    },
)
expect("start without model_type and client_generated_files", start, 201, txn_id=txn_id)

# The service answers 202 while it works; the reference service completes in milliseconds here.
for _ in range(10000):
    result = session.get(f"{base}/voice/api/v3/status/{txn_id}", headers=headers)
    if result.status_code != 202:
        break
output = result.json()["data"]["output"] if result.status_code == 200 else []
expect("status", result, 200, templates=[item["template_id"] for item in output],
       additional_data=result.json()["data"].get("additional_data"))
print(json.dumps({"step": "document", "text": base64.b64decode(output[0]["value"]).decode()}))
