"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const constructs_1 = require("constructs");
const cdktf_1 = require("cdktf");
const s3_bucket_1 = require("@cdktf/provider-aws/lib/s3-bucket");
class Logs extends constructs_1.Construct {
    constructor(scope, id) {
        super(scope, id);
        new s3_bucket_1.S3Bucket(this, "Bucket", {
            bucketPrefix: "logs-",
        });
    }
}
class MyStack extends cdktf_1.TerraformStack {
    constructor(scope, id) {
        super(scope, id);
        new Logs(this, "Logs");
    }
}
const app = new cdktf_1.App();
new MyStack(app, "dev");
new MyStack(app, "prod");
app.synth();
//# sourceMappingURL=data:application/json;base64,eyJ2ZXJzaW9uIjozLCJmaWxlIjoibWFpbi5qcyIsInNvdXJjZVJvb3QiOiIiLCJzb3VyY2VzIjpbIi4uL21haW4udHMiXSwibmFtZXMiOltdLCJtYXBwaW5ncyI6Ijs7QUFBQSwyQ0FBdUM7QUFDdkMsaUNBQTRDO0FBQzVDLGlFQUE2RDtBQUU3RCxNQUFNLElBQUssU0FBUSxzQkFBUztJQUMxQixZQUFZLEtBQWdCLEVBQUUsRUFBVTtRQUN0QyxLQUFLLENBQUMsS0FBSyxFQUFFLEVBQUUsQ0FBQyxDQUFDO1FBQ2pCLElBQUksb0JBQVEsQ0FBQyxJQUFJLEVBQUUsUUFBUSxFQUFFO1lBQzNCLFlBQVksRUFBRSxPQUFPO1NBQ3RCLENBQUMsQ0FBQztJQUNMLENBQUM7Q0FDRjtBQUVELE1BQU0sT0FBUSxTQUFRLHNCQUFjO0lBQ2xDLFlBQVksS0FBZ0IsRUFBRSxFQUFVO1FBQ3RDLEtBQUssQ0FBQyxLQUFLLEVBQUUsRUFBRSxDQUFDLENBQUM7UUFDakIsSUFBSSxJQUFJLENBQUMsSUFBSSxFQUFFLE1BQU0sQ0FBQyxDQUFDO0lBQ3pCLENBQUM7Q0FDRjtBQUVELE1BQU0sR0FBRyxHQUFHLElBQUksV0FBRyxFQUFFLENBQUM7QUFDdEIsSUFBSSxPQUFPLENBQUMsR0FBRyxFQUFFLEtBQUssQ0FBQyxDQUFDO0FBQ3hCLElBQUksT0FBTyxDQUFDLEdBQUcsRUFBRSxNQUFNLENBQUMsQ0FBQztBQUN6QixHQUFHLENBQUMsS0FBSyxFQUFFLENBQUMiLCJzb3VyY2VzQ29udGVudCI6WyJpbXBvcnQgeyBDb25zdHJ1Y3QgfSBmcm9tIFwiY29uc3RydWN0c1wiO1xuaW1wb3J0IHsgQXBwLCBUZXJyYWZvcm1TdGFjayB9IGZyb20gXCJjZGt0ZlwiO1xuaW1wb3J0IHsgUzNCdWNrZXQgfSBmcm9tIFwiQGNka3RmL3Byb3ZpZGVyLWF3cy9saWIvczMtYnVja2V0XCI7XG5cbmNsYXNzIExvZ3MgZXh0ZW5kcyBDb25zdHJ1Y3Qge1xuICBjb25zdHJ1Y3RvcihzY29wZTogQ29uc3RydWN0LCBpZDogc3RyaW5nKSB7XG4gICAgc3VwZXIoc2NvcGUsIGlkKTtcbiAgICBuZXcgUzNCdWNrZXQodGhpcywgXCJCdWNrZXRcIiwge1xuICAgICAgYnVja2V0UHJlZml4OiBcImxvZ3MtXCIsXG4gICAgfSk7XG4gIH1cbn1cblxuY2xhc3MgTXlTdGFjayBleHRlbmRzIFRlcnJhZm9ybVN0YWNrIHtcbiAgY29uc3RydWN0b3Ioc2NvcGU6IENvbnN0cnVjdCwgaWQ6IHN0cmluZykge1xuICAgIHN1cGVyKHNjb3BlLCBpZCk7XG4gICAgbmV3IExvZ3ModGhpcywgXCJMb2dzXCIpO1xuICB9XG59XG5cbmNvbnN0IGFwcCA9IG5ldyBBcHAoKTtcbm5ldyBNeVN0YWNrKGFwcCwgXCJkZXZcIik7XG5uZXcgTXlTdGFjayhhcHAsIFwicHJvZFwiKTtcbmFwcC5zeW50aCgpO1xuIl19